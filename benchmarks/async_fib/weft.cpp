// SPDX-License-Identifier: MIT
// async_fib on weft: weft::async for one side and future::get at every level; the join
// version is the fib workload's.
#include <weft/weft.hpp>

#include "async_fib/config.hpp"

namespace weft_bench::async_fib {
namespace {

std::uint64_t fib_async(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  auto a = weft::async([n] { return fib_async(n - 1); });
  const std::uint64_t b = fib_async(n - 2);
  return a.get() + b;
}

}  // namespace

std::vector<double> run_weft(int n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return time_reps(reps, [&] {
    const std::uint64_t r = pool.install([n] { return fib_async(n); });
    keep(r);
    fib::check("weft async", n, r);
  });
}

std::vector<double> run_weft_join(int n, int threads, int reps) { return fib::run_weft(n, threads, reps); }

}  // namespace weft_bench::async_fib
