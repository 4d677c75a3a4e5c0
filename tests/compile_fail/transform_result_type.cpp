// The function object's result must be assignable to the output's elements.
#include <weft/weft.hpp>

#include <string>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  std::vector<int> out(v.size());
#ifdef WEFT_CF_CONTROL
  weft::transform(weft::par, v.begin(), v.end(), out.begin(), [](int x) { return x + 1; });
#else
  weft::transform(weft::par, v.begin(), v.end(), out.begin(),
                  [](int x) { return std::to_string(x); });
#endif
  return out[0];
}
