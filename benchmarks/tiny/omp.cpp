// SPDX-License-Identifier: MIT
// tiny on OpenMP: a `parallel for simd reduction(+)` region per call.
#include "tiny/config.hpp"

namespace weft_bench::tiny {

timed<double> run_omp(const std::vector<double>& a, int threads, int calls) {
  const double* x = a.data();
  const std::size_t n = a.size();
  return time_batches(calls, [&] {
    double s = 0;
#pragma omp parallel for simd num_threads(threads) reduction(+ : s)
    for (std::size_t i = 0; i < n; ++i) s += x[i] * x[i];
    return s;
  });
}

}  // namespace weft_bench::tiny
