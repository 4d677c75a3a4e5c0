// SPDX-License-Identifier: MIT
// collect on OpenMP: a sized std::vector filled by `parallel for`.
#include "collect/config.hpp"

namespace weft_bench::collect {

timed<std::vector<double>> run_omp(const std::vector<double>& v, int threads, int reps) {
  const std::size_t n = v.size();
  return time_calls(reps, [&] {
    std::vector<double> out(n);
    double* o = out.data();
    const double* x = v.data();
#pragma omp parallel for num_threads(threads)
    for (std::size_t i = 0; i < n; ++i) o[i] = transform(x[i]);
    return out;
  });
}

}  // namespace weft_bench::collect
