// SPDX-License-Identifier: MIT
// unbalanced on OpenMP: `parallel for reduction(+) schedule(dynamic)`; the default static
// schedule would hand the costly second half to one thread.
#include "unbalanced/config.hpp"

namespace weft_bench::unbalanced {

timed<std::uint64_t> run_omp(std::int64_t n, int threads, int reps) {
  return time_calls(reps, [&] {
    std::uint64_t s = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : s) schedule(dynamic)
    for (std::int64_t i = 0; i < n; ++i) s += cost(i);
    return s;
  });
}

}  // namespace weft_bench::unbalanced
