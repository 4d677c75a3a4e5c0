// while_some needs items that are std::optionals.
#include <weft/weft.hpp>

#include <optional>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return static_cast<int>(weft::iter(v).map([](int x) { return std::optional<int>(x); }).while_some().count());
#else
  return static_cast<int>(weft::iter(v).while_some().count());
#endif
}
