// reduce_with(op): op combines two values into one of the same type.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return weft::iter(v).reduce_with([](int a, int b) { return a + b; }).value_or(0);
#else
  return weft::iter(v).reduce_with([](int a) { return a; }).value_or(0);
#endif
}
