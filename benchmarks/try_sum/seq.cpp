// SPDX-License-Identifier: MIT
// try_sum baseline: a loop that stops at the first overflow.
#include "try_sum/config.hpp"

namespace weft_bench::try_sum {

timed<std::int64_t> run_seq(const std::vector<std::int64_t>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] {
    std::int64_t s = 0;
    for (const std::int64_t x : v)
      if (__builtin_add_overflow(s, x, &s)) return std::int64_t{-1};
    return s;
  });
}

}  // namespace weft_bench::try_sum
