// SPDX-License-Identifier: MIT
#include "weft/weft.hpp"
int main() {
#ifdef WEFT_CF_CONTROL
  weft::join([] { return 1; }, [] { return 2; }, [] {});
#else
  weft::join([] { return 1; }, [] { return 2; }, 3);
#endif
}
