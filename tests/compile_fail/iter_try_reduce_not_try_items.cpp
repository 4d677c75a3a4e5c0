// try_reduce needs items that are try values.
#include <weft/weft.hpp>

#include <optional>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  const auto plus = [](int a, int b) { return std::optional<int>(a + b); };
#ifdef WEFT_CF_CONTROL
  return *weft::iter(v).map([](int x) { return std::optional<int>(x); }).try_reduce(0, plus);
#else
  return *weft::iter(v).try_reduce(0, plus);
#endif
}
