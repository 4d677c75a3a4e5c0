// interleave takes items in turn by position: it needs an indexed pipeline.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> a{1, 2, 3}, b{4, 5};
  const auto odd = [](int x) { return x % 2 != 0; };
#ifdef WEFT_CF_CONTROL
  return static_cast<int>(weft::iter(a).interleave(b).filter(odd).count());
#else
  return static_cast<int>(weft::iter(a).filter(odd).interleave(b).count());
#endif
}
