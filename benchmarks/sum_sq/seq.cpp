// SPDX-License-Identifier: MIT
// sum_sq baselines: the plain loop, scalar and with 8 accumulators.
#include "sum_sq/config.hpp"

namespace weft_bench::sum_sq {

timed<double> run_seq(const std::vector<double>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] { return sum_sq_scalar(v.data(), v.size()); });
}

timed<double> run_seq_lanes(const std::vector<double>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] { return sum_sq_lanes(v.data(), v.size()); });
}

}  // namespace weft_bench::sum_sq
