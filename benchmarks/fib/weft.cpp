// SPDX-License-Identifier: MIT
// fib on weft: weft::join at every level, inside thread_pool::install.
#include <weft/weft.hpp>

#include "fib/config.hpp"

namespace weft_bench::fib {

std::uint64_t fib_weft(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  auto [a, b] = weft::join([n] { return fib_weft(n - 1); }, [n] { return fib_weft(n - 2); });
  return a + b;
}

std::vector<double> run_weft(int n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return time_reps(reps, [&] {
    const std::uint64_t r = pool.install([n] { return fib_weft(n); });
    keep(r);
    check("weft", n, r);
  });
}

}  // namespace weft_bench::fib
