// positions(p) reports each matching item's position: it needs an indexed pipeline.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  const auto odd = [](int x) { return x % 2 != 0; };
#ifdef WEFT_CF_CONTROL
  return static_cast<int>(weft::iter(v).positions(odd).count());
#else
  return static_cast<int>(weft::iter(v).filter(odd).positions(odd).count());
#endif
}
