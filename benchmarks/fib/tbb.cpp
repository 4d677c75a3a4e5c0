// SPDX-License-Identifier: MIT
// fib on oneTBB: tbb::parallel_invoke at every level, threads capped by tbb::global_control.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_invoke.h>

#include "fib/config.hpp"

namespace weft_bench::fib {

namespace {

// Internal linkage, as every peer's recursion has.
std::uint64_t fib_invoke(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0, b = 0;
  tbb::parallel_invoke([&] { a = fib_invoke(n - 1); }, [&] { b = fib_invoke(n - 2); });
  return a + b;
}

}  // namespace

std::uint64_t fib_tbb(int n) { return fib_invoke(n); }

std::vector<double> run_tbb(int n, int threads, int reps) {
  // Only for the measurement: outside it, TBB's workers must not compete with other peers.
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_reps(reps, [&] {
    const std::uint64_t r = fib_invoke(n);
    keep(r);
    check("tbb", n, r);
  });
}

}  // namespace weft_bench::fib
