// repeat_n's items are copies of its value: a move-only value cannot be repeated.
#include <weft/weft.hpp>

#include <memory>

int main() {
#ifdef WEFT_CF_CONTROL
  auto p = weft::repeat_n(std::make_shared<int>(1), 3);
#else
  auto p = weft::repeat_n(std::make_unique<int>(1), 3);
#endif
  return static_cast<int>(p.size());
}
