// SPDX-License-Identifier: MIT
// for_each on OpenMP: `parallel for`.
#include "for_each/config.hpp"

namespace weft_bench::for_each {

timed<double> run_omp(const std::vector<double>& in, int threads, int reps) {
  turn_buffer<double> v(in.begin(), in.end());
  double* x = v.data();
  const std::size_t n = v.size();
  auto out = time_calls(reps, [&] {
#pragma omp parallel for num_threads(threads)
    for (std::size_t i = 0; i < n; ++i) update(x[i]);
    return 0.0;
  });
  out.result = input_checksum(v, out.calls);
  return out;
}

}  // namespace weft_bench::for_each
