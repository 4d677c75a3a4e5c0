// A pipeline over a mutable std::vector<bool> would hand threads proxies into shared words:
// refused, with the way to read it (std::as_const) in the message.
#include <weft/weft.hpp>

#include <utility>
#include <vector>

int main() {
  std::vector<bool> flags(100, true);
#ifdef WEFT_CF_CONTROL
  const auto n = weft::iter(std::as_const(flags)).filter([](bool b) { return b; }).count();
#else
  const auto n = weft::iter(flags).filter([](bool b) { return b; }).count();
#endif
  return static_cast<int>(n);
}
