// SPDX-License-Identifier: MIT
// tiny on OpenMP: a `parallel for simd reduction(+)` region per call (sum_sq's).
#include "tiny/config.hpp"

namespace weft_bench::tiny {

timed<double> run_omp(const std::vector<double>& a, int threads, int calls) {
  return time_batches(calls, [&] { return sum_sq::sum_sq_omp(a, threads); });
}

}  // namespace weft_bench::tiny
