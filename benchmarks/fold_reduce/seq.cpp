// SPDX-License-Identifier: MIT
// fold_reduce baseline: one loop.
#include "fold_reduce/config.hpp"

namespace weft_bench::fold_reduce {

timed<std::int64_t> run_seq(const std::vector<std::int64_t>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] {
    std::int64_t s = 0;
    for (const std::int64_t x : v) s = add_square(s, x);
    return s;
  });
}

}  // namespace weft_bench::fold_reduce
