// SPDX-License-Identifier: MIT
// fib with a join at every level: the tests' standard fork-join workload.
#pragma once

#include "weft/weft.hpp"

namespace weft_test {

inline long par_fib(int n) {
  if (n < 2) return n;
  auto [a, b] = weft::join([&] { return par_fib(n - 1); }, [&] { return par_fib(n - 2); });
  return a + b;
}

inline long seq_fib(int n) { return n < 2 ? n : seq_fib(n - 1) + seq_fib(n - 2); }

}  // namespace weft_test
