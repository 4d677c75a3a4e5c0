// SPDX-License-Identifier: MIT
#include "weft/weft.hpp"
int main() {
  weft::thread_pool pool({.num_threads = 1});
#ifdef WEFT_CF_CONTROL
  pool.install([] {});
#else
  pool.install("not a function");
#endif
}
