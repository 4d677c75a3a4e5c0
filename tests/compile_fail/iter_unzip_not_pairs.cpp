// unzip() needs items that are std::pairs.
#include <weft/weft.hpp>

#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  auto halves = weft::iter(v).enumerate().unzip();
#else
  auto halves = weft::iter(v).unzip();
#endif
  return static_cast<int>(halves.first.size());
}
