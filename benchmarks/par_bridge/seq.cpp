// SPDX-License-Identifier: MIT
// par_bridge baseline: the generator's items worked on one after another.
#include "par_bridge/config.hpp"

namespace weft_bench::par_bridge {

timed<std::uint64_t> run_seq(const std::size_t& n, int /*threads*/, int reps) {
  return time_calls(reps, [&] {
    counter source{0, n};
    std::uint64_t total = 0;
    while (const auto x = source()) total += work(*x);
    return total;
  });
}

}  // namespace weft_bench::par_bridge
