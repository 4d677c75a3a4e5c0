// SPDX-License-Identifier: MIT
// fine_sum's sequential peer: sum_sq's 8-lane loop over the whole vector, in one piece.
#include "fine_sum/config.hpp"

namespace weft_bench::fine_sum {

timed<double> run_seq(const std::vector<double>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] { return sum_sq::sum_sq_lanes(v.data(), v.size()); });
}

}  // namespace weft_bench::fine_sum
