// SPDX-License-Identifier: MIT
// sum_sq on OpenMP: `parallel for simd reduction(+)`, which lets each thread vectorise.
#include "sum_sq/config.hpp"

namespace weft_bench::sum_sq {

timed<double> run_omp(const std::vector<double>& v, int threads, int reps) {
  const double* x = v.data();
  const std::size_t n = v.size();
  return time_calls(reps, [&] {
    double s = 0;
#pragma omp parallel for simd num_threads(threads) reduction(+ : s)
    for (std::size_t i = 0; i < n; ++i) s += x[i] * x[i];
    return s;
  });
}

}  // namespace weft_bench::sum_sq
