// SPDX-License-Identifier: MIT
// transform on OpenMP: `parallel for`.
#include "transform/config.hpp"

namespace weft_bench::transform {

timed<double> run_omp(const std::vector<double>& in, int threads, int reps) {
  turn_buffer<double> out(in.size(), -1.0);
  const double* x = in.data();
  double* y = out.data();
  const std::size_t n = in.size();
  auto t = time_calls(reps, [&] {
#pragma omp parallel for num_threads(threads)
    for (std::size_t i = 0; i < n; ++i) y[i] = affine(x[i]);
    return 0.0;
  });
  t.result = output_checksum(out);
  return t;
}

}  // namespace weft_bench::transform
