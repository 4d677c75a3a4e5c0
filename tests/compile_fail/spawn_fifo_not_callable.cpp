// SPDX-License-Identifier: MIT
#include "weft/weft.hpp"
int main() {
  weft::scope_fifo([](auto& s) {
#ifdef WEFT_CF_CONTROL
    s.spawn_fifo([] {});
#else
    s.spawn_fifo(7);
#endif
  });
}
