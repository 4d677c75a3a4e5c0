// SPDX-License-Identifier: MIT
#include "weft/weft.hpp"
int main() {
#ifdef WEFT_CF_CONTROL
  weft::spawn([] {});
#else
  weft::spawn(42);
#endif
  weft::wait_idle();
}
