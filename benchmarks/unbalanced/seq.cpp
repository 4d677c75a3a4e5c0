// SPDX-License-Identifier: MIT
// unbalanced baseline: the plain loop.
#include "unbalanced/config.hpp"

namespace weft_bench::unbalanced {

timed<std::uint64_t> run_seq(std::int64_t n, int /*threads*/, int reps) {
  volatile std::int64_t vn = n;
  return time_calls(reps, [&] {
    const std::int64_t last = vn;
    std::uint64_t s = 0;
    for (std::int64_t i = 0; i < last; ++i) s += cost(i);
    return s;
  });
}

}  // namespace weft_bench::unbalanced
