// SPDX-License-Identifier: MIT
// Idle CPU after an OpenMP burst, under whatever OMP_WAIT_POLICY the environment sets.
#include "idle/config.hpp"

namespace weft_bench::idle {

std::vector<sample> run_omp(int threads, int reps) {
  return measure(reps, [threads] {
    const std::uint64_t r = fib::fib_omp(fib::burst_n, threads);
    fib::check("omp", fib::burst_n, r);
  });
}

}  // namespace weft_bench::idle
