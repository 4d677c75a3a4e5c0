// A predicate must return something convertible to bool.
#include <weft/weft.hpp>

#include <string>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return weft::any_of(weft::par, v.begin(), v.end(), [](int x) { return x > 2; }) ? 0 : 1;
#else
  return weft::any_of(weft::par, v.begin(), v.end(), [](int x) { return std::to_string(x); }) ? 0 : 1;
#endif
}
