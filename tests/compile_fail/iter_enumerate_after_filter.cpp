// enumerate needs item positions: it cannot follow filter.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return static_cast<int>(weft::iter(v).enumerate().filter([](auto p) { return p.second > 1; }).count());
#else
  return static_cast<int>(weft::iter(v).filter([](int x) { return x > 1; }).enumerate().count());
#endif
}
