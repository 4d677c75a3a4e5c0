// SPDX-License-Identifier: MIT
// transform_reduce on OpenMP: `parallel for reduction(+)`.
#include "transform_reduce/config.hpp"

namespace weft_bench::transform_reduce {

timed<double> run_omp(const input& in, int threads, int reps) {
  const double* a = in.a.data();
  const double* b = in.b.data();
  const std::size_t n = in.a.size();
  return time_calls(reps, [&] {
    double s = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : s)
    for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
  });
}

}  // namespace weft_bench::transform_reduce
