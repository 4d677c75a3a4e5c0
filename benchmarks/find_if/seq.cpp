// SPDX-License-Identifier: MIT
// find_if baseline: std::find_if without a policy.
#include <algorithm>

#include "find_if/config.hpp"

namespace weft_bench::find_if {

timed<std::size_t> run_seq(const std::vector<std::int32_t>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] {
    return static_cast<std::size_t>(std::find_if(v.begin(), v.end(), pred) - v.begin());
  });
}

}  // namespace weft_bench::find_if
