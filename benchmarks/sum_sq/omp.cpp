// SPDX-License-Identifier: MIT
// sum_sq on OpenMP: `parallel for simd reduction(+)`, which lets each thread vectorise.
#include "sum_sq/config.hpp"

namespace weft_bench::sum_sq {

timed<double> run_omp(const std::vector<double>& v, int threads, int reps) {
  return time_calls(reps, [&] { return sum_sq_omp(v, threads); });
}

}  // namespace weft_bench::sum_sq
