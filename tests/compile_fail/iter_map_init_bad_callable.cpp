// map_init's f takes the leaf's state by reference, then the item: a callable that takes
// only the item is rejected with a message saying so.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return weft::iter(v).map_init([] { return 0; }, [](int& calls, int x) { return x + calls++; }).sum();
#else
  return weft::iter(v).map_init([] { return 0; }, [](int x) { return x + 1; }).sum();
#endif
}
