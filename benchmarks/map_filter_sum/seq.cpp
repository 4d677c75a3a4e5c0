// SPDX-License-Identifier: MIT
// map_filter_sum baseline: the plain loop.
#include "map_filter_sum/config.hpp"

namespace weft_bench::map_filter_sum {

timed<std::int64_t> run_seq(std::int64_t n, int /*threads*/, int reps) {
  // Read n back through a volatile so the loop cannot be folded at compile time.
  volatile std::int64_t vn = n;
  return time_calls(reps, [&] {
    const std::int64_t last = vn;
    std::int64_t s = 0;
    for (std::int64_t x = 0; x < last; ++x)
      if (keep_item(x)) s += value_of(x);
    return s;
  });
}

}  // namespace weft_bench::map_filter_sum
