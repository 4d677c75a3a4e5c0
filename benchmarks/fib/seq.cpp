// SPDX-License-Identifier: MIT
// fib baseline: plain sequential recursion, as the compiler sees fit to optimize it at -O3.
#include "fib/config.hpp"

namespace weft_bench::fib {
namespace {

std::uint64_t fib_seq(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  return fib_seq(n - 1) + fib_seq(n - 2);
}

// The same recursion kept out of itself: each level is a call, as each level of
// fib_join_calls (weft.cpp) is a call plus a join.
[[gnu::noinline]] std::uint64_t fib_seq_calls(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  return fib_seq_calls(n - 1) + fib_seq_calls(n - 2);
}

}  // namespace

std::vector<double> run_seq_calls(int n, int /*threads*/, int reps) {
  volatile int vn = n;
  return time_reps(reps, [&] {
    const std::uint64_t r = fib_seq_calls(vn);
    keep(r);
    check("seq-calls", n, r);
  });
}

std::vector<double> run_seq(int n, int /*threads*/, int reps) {
  // Read n back through a volatile so the call cannot be folded into a constant.
  volatile int vn = n;
  return time_reps(reps, [&] {
    const std::uint64_t r = fib_seq(vn);
    keep(r);
    check("seq", n, r);
  });
}

std::vector<double> run_seq_copies(int n, int threads, int reps) {
  volatile int vn = n;
  return time_copies(threads, reps, [&] {
    const std::uint64_t r = fib_seq(vn);
    keep(r);
    check("seq", n, r);
  });
}

}  // namespace weft_bench::fib
