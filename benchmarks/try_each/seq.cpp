// SPDX-License-Identifier: MIT
// try_each baseline: a loop that stops at the first item failing the check.
#include "try_each/config.hpp"

namespace weft_bench::try_each {

timed<std::size_t> run_seq(const std::vector<std::int64_t>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] {
    std::size_t i = 0;
    while (i < v.size() && valid(v[i])) ++i;
    return i;
  });
}

}  // namespace weft_bench::try_each
