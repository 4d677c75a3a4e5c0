// SPDX-License-Identifier: MIT
// count_if baseline: std::count_if without a policy.
#include <algorithm>

#include "count_if/config.hpp"

namespace weft_bench::count_if {

timed<std::int64_t> run_seq(const std::vector<std::int32_t>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] { return static_cast<std::int64_t>(std::count_if(v.begin(), v.end(), pred)); });
}

}  // namespace weft_bench::count_if
