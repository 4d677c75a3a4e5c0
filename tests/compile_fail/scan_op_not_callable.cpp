// A scan's op combines two accumulators: a one-argument callable is rejected.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  std::vector<int> out(3);
#ifdef WEFT_CF_CONTROL
  weft::inclusive_scan(weft::par, v.begin(), v.end(), out.begin(), [](int a, int b) { return a + b; });
#else
  weft::inclusive_scan(weft::par, v.begin(), v.end(), out.begin(), [](int a) { return a; });
#endif
  return out[2];
}
