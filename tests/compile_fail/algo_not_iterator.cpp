// The policy overloads take iterators: passing values (here ints) is caught with a message.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return static_cast<int>(weft::count_if(weft::par, v.begin(), v.end(), [](int x) { return x > 1; }));
#else
  return static_cast<int>(weft::count_if(weft::par, 0, 3, [](int x) { return x > 1; }));
#endif
}
