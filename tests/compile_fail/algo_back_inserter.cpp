// A parallel overload's output must be a forward iterator, as with std::execution.
#include <weft/weft.hpp>

#include <iterator>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  std::vector<int> out;
#ifdef WEFT_CF_CONTROL
  out.resize(v.size());
  weft::copy(weft::par, v.begin(), v.end(), out.begin());
#else
  weft::copy(weft::par, v.begin(), v.end(), std::back_inserter(out));
#endif
  return static_cast<int>(out.size());
}
