// SPDX-License-Identifier: MIT
// fib on weft: weft::join at every level, inside thread_pool::install.
#include <weft/weft.hpp>

#include "fib/config.hpp"

namespace weft_bench::fib {

namespace {

// Internal linkage, as every peer's recursion has (fib_seq, fib_task): the compiler gets the
// same freedom with each.
std::uint64_t fib_join(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  auto [a, b] = weft::join([n] { return fib_join(n - 1); }, [n] { return fib_join(n - 2); });
  return a + b;
}

// fib_join kept out of itself, against fib_seq_calls (seq.cpp): what a join costs over a call.
[[gnu::noinline]] std::uint64_t fib_join_calls(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  auto [a, b] =
      weft::join([n] { return fib_join_calls(n - 1); }, [n] { return fib_join_calls(n - 2); });
  return a + b;
}

}  // namespace

std::vector<double> run_weft_calls(int n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return time_reps(reps, [&] {
    const std::uint64_t r = pool.install([n] { return fib_join_calls(n); });
    keep(r);
    check("weft-calls", n, r);
  });
}

std::uint64_t fib_weft(int n) { return fib_join(n); }

std::vector<double> run_weft(int n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return time_reps(reps, [&] {
    const std::uint64_t r = pool.install([n] { return fib_join(n); });
    keep(r);
    check("weft", n, r);
  });
}

}  // namespace weft_bench::fib
