// SPDX-License-Identifier: MIT
#include "weft/weft.hpp"
int main() {
  weft::task_group g;
#ifdef WEFT_CF_CONTROL
  g.run([] {});
#else
  g.run([](int x) { return x; });
#endif
  g.wait();
}
