// copy_if's predicate takes one element: a two-argument callable is rejected.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  std::vector<int> out(3);
#ifdef WEFT_CF_CONTROL
  auto end = weft::copy_if(weft::par, v.begin(), v.end(), out.begin(), [](int a) { return a > 1; });
#else
  auto end = weft::copy_if(weft::par, v.begin(), v.end(), out.begin(), [](int a, int b) { return a > b; });
#endif
  return static_cast<int>(end - out.begin());
}
