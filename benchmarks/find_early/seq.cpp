// SPDX-License-Identifier: MIT
// find_early baseline: std::find_if.
#include "find_early/config.hpp"

namespace weft_bench::find_early {

timed<std::size_t> run_seq(const std::vector<std::int32_t>& v, int /*threads*/, int calls) {
  return time_calls(calls, [&] {
    return static_cast<std::size_t>(std::find_if(v.begin(), v.end(), is_match) - v.begin());
  });
}

}  // namespace weft_bench::find_early
