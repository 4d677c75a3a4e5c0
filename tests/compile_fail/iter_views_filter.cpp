// std::views::filter is not random-access: weft::iter says to filter inside the pipeline.
#include <weft/weft.hpp>

#include <ranges>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  return weft::iter(v).filter([](int x) { return x > 1; }).sum();
#else
  return weft::iter(v | std::views::filter([](int x) { return x > 1; })).sum();
#endif
}
