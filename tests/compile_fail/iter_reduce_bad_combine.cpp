// reduce(identity, fold, combine): combine joins two accumulators, not an accumulator and an
// item.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  auto fold = [](std::vector<int> acc, int x) {
    acc.push_back(x);
    return acc;
  };
#ifdef WEFT_CF_CONTROL
  auto combine = [](std::vector<int> a, const std::vector<int>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
#else
  auto combine = [](std::vector<int> a, int x) {
    a.push_back(x);
    return a;
  };
#endif
  return static_cast<int>(weft::iter(v).reduce(std::vector<int>{}, fold, combine).size());
}
