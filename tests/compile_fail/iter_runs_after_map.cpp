// Chunks after a map read their items through the map's callable, which the pipeline owns:
// min_by would return a chunk that calls it after the pipeline is gone.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{4, 3, 2, 1};
  const auto twice = [](int x) { return 2 * x; };
  const auto by_first = [](const auto& l, const auto& r) { return l[0] < r[0]; };
#ifdef WEFT_CF_CONTROL
  auto best = weft::iter(v).chunks(2).min_by(by_first);  // spans into v: borrowed
  return best ? twice(best->front()) : 0;
#else
  auto best = weft::iter(v).map(twice).chunks(2).min_by(by_first);
  return best ? (*best)[0] : 0;
#endif
}
