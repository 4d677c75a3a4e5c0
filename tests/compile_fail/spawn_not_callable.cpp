// SPDX-License-Identifier: MIT
#include "weft/weft.hpp"
int main() {
  weft::scope([](auto& s) {
#ifdef WEFT_CF_CONTROL
    s.spawn([] {});
#else
    s.spawn(7);
#endif
  });
}
