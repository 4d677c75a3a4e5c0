// flatten() needs items that are ranges.
#include <weft/weft.hpp>

#include <vector>

int main() {
#ifdef WEFT_CF_CONTROL
  std::vector<std::vector<int>> v{{1, 2}, {3}};
#else
  std::vector<int> v{1, 2, 3};
#endif
  return static_cast<int>(weft::iter(v).flatten().count());
}
