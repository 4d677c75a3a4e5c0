// SPDX-License-Identifier: MIT
// fib on OpenMP: a task + taskwait at every level, inside one parallel/single region.
#include <omp.h>

#include "fib/config.hpp"

namespace weft_bench::fib {
namespace {

std::uint64_t fib_task(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0, b = 0;
#pragma omp task shared(a) firstprivate(n)
  a = fib_task(n - 1);
  b = fib_task(n - 2);
#pragma omp taskwait
  return a + b;
}

}  // namespace

std::uint64_t fib_omp(int n, int threads) {
  std::uint64_t r = 0;
#pragma omp parallel num_threads(threads) shared(r) firstprivate(n)
#pragma omp single
  r = fib_task(n);
  return r;
}

std::vector<double> run_omp(int n, int threads, int reps) {
  return time_reps(reps, [&] {
    const std::uint64_t r = fib_omp(n, threads);
    keep(r);
    check("omp", n, r);
  });
}

}  // namespace weft_bench::fib
