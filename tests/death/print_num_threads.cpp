// SPDX-License-Identifier: MIT
// Prints the global pool's size: the environment tests check WEFT_NUM_THREADS parsing.
#include <cstdio>

#include "weft/weft.hpp"

int main() {
  std::printf("threads=%zu\n", weft::num_threads());
  return 0;
}
