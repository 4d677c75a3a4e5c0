// SPDX-License-Identifier: MIT
// fib on oneTBB: tbb::parallel_invoke at every level, threads capped by tbb::global_control.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_invoke.h>

#include "fib/config.hpp"

namespace weft_bench::fib {

std::uint64_t fib_tbb(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0, b = 0;
  tbb::parallel_invoke([&] { a = fib_tbb(n - 1); }, [&] { b = fib_tbb(n - 2); });
  return a + b;
}

std::vector<double> run_tbb(int n, int threads, int reps) {
  // Only for the measurement: outside it, TBB's workers must not compete with other peers.
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_reps(reps, [&] {
    const std::uint64_t r = fib_tbb(n);
    keep(r);
    check("tbb", n, r);
  });
}

}  // namespace weft_bench::fib
