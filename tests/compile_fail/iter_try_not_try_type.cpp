// try_for_each's callable must return a try type (bool, std::optional, expected-like).
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return weft::iter(v).try_for_each([](int x) { return x > 0; }) ? 0 : 1;
#else
  (void)weft::iter(v).try_for_each([](int x) { return x; });
#endif
}
