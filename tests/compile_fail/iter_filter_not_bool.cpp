// filter's predicate must return something testable as bool.
#include <weft/weft.hpp>

#include <string>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return static_cast<int>(weft::iter(v).filter([](int x) { return x > 1; }).count());
#else
  return static_cast<int>(weft::iter(v).filter([](int x) { return std::to_string(x); }).count());
#endif
}
