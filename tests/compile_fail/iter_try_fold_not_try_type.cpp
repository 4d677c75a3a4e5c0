// try_fold's callable must return a try type, whose success carries the accumulator.
#include <weft/weft.hpp>

#include <optional>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  const auto plus = [](int a, int b) { return std::optional<int>(a + b); };
#ifdef WEFT_CF_CONTROL
  return *weft::iter(v).try_fold(0, [](int a, int x) { return std::optional<int>(a + x); })
              .try_reduce(0, plus);
#else
  return *weft::iter(v).try_fold(0, [](int a, int x) { return a + x; }).try_reduce(0, plus);
#endif
}
