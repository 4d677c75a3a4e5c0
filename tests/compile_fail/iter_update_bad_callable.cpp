// update(f) hands f a mutable value: f must take it as value& (a callable of another type
// is refused with a readable message).
#include <weft/weft.hpp>

#include <string>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return static_cast<int>(weft::iter(v).update([](int& x) { x += 1; }).sum());
#else
  return static_cast<int>(weft::iter(v).update([](std::string& s) { s += "x"; }).sum());
#endif
}
