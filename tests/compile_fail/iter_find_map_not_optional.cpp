// find_map_first's callable must return a std::optional.
#include <weft/weft.hpp>

#include <optional>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return weft::iter(v).find_map_first([](int x) { return x > 1 ? std::optional<int>(x) : std::nullopt; }).value_or(0);
#else
  return weft::iter(v).find_map_first([](int x) { return x; }) ? 0 : 1;
#endif
}
