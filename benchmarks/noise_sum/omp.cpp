// SPDX-License-Identifier: MIT
// noise_sum on OpenMP: a parallel region, a generator per thread, `for` with a reduction.
#include "noise_sum/config.hpp"

namespace weft_bench::noise_sum {

timed<double> run_omp(const std::vector<double>& v, int threads, int reps) {
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(v.size());
  return time_calls(reps, [&] {
    double s = 0;
#pragma omp parallel num_threads(threads) reduction(+ : s)
    {
      std::mt19937_64 g(next_seed());
#pragma omp for
      for (std::ptrdiff_t i = 0; i < n; ++i) s += v[static_cast<std::size_t>(i)] + unit(g);
    }
    return s;
  });
}

}  // namespace weft_bench::noise_sum
