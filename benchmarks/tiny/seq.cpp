// SPDX-License-Identifier: MIT
// tiny baselines: the plain loop, scalar and with 8 accumulators.
#include "tiny/config.hpp"

namespace weft_bench::tiny {

timed<double> run_seq(const std::vector<double>& a, int /*threads*/, int calls) {
  return time_batches(calls, [&] { return sum_sq_scalar(a.data(), a.size()); });
}

timed<double> run_seq_lanes(const std::vector<double>& a, int /*threads*/, int calls) {
  return time_batches(calls, [&] { return sum_sq_lanes(a.data(), a.size()); });
}

}  // namespace weft_bench::tiny
