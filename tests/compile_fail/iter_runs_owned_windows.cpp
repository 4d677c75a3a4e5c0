// Windows of a container moved into the pipeline view it: find_first would return one
// dangling. Mapping each window to a value first is the fix.
#include <weft/weft.hpp>

#include <span>
#include <vector>

int main() {
#ifdef WEFT_CF_CONTROL
  auto hit = weft::iter(std::vector<int>{1, 2, 3, 4})
                 .windows(2)
                 .map([](std::span<int> w) { return w[0] + w[1]; })
                 .find_first([](int s) { return s > 4; });
  return hit ? *hit : 0;
#else
  auto hit = weft::iter(std::vector<int>{1, 2, 3, 4}).windows(2).find_first([](std::span<int> w) {
    return w[0] + w[1] > 4;
  });
  return hit ? hit->front() : 0;
#endif
}
