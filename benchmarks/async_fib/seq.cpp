// SPDX-License-Identifier: MIT
// async_fib baseline: the sequential fib peer's recursion.
#include "async_fib/config.hpp"

namespace weft_bench::async_fib {

std::vector<double> run_seq(int n, int threads, int reps) { return fib::run_seq(n, threads, reps); }

}  // namespace weft_bench::async_fib
