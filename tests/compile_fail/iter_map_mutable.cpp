// map's callable runs on several threads at once: a mutable lambda is rejected.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  int calls = 0;
#ifdef WEFT_CF_CONTROL
  return weft::iter(v).map([calls](int x) { return x + calls; }).sum();
#else
  return weft::iter(v).map([calls](int x) mutable { return x + ++calls; }).sum();
#endif
}
