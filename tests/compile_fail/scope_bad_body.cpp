// SPDX-License-Identifier: MIT
#include "weft/weft.hpp"
int main() {
#ifdef WEFT_CF_CONTROL
  weft::scope([](auto& s) { s.spawn([] {}); });
#else
  weft::scope([] {});
#endif
}
