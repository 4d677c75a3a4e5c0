// SPDX-License-Identifier: MIT
#include "weft/weft.hpp"
int main() {
#ifdef WEFT_CF_CONTROL
  weft::spawn_fifo([] {});
#else
  weft::spawn_fifo(42);
#endif
  weft::wait_idle();
}
