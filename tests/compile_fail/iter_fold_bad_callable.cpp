// fold(identity, f): f folds an item into the accumulator and returns it: f(T, item) -> T.
#include <weft/weft.hpp>

#include <string>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return static_cast<int>(weft::iter(v).fold(0, [](int s, int x) { return s + x; }).sum());
#else
  return static_cast<int>(
      weft::iter(v).fold(0, [](int s, int x) { return std::to_string(s + x); }).count());
#endif
}
