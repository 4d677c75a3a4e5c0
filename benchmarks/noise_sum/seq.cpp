// SPDX-License-Identifier: MIT
// noise_sum baseline: one generator, a plain loop.
#include "noise_sum/config.hpp"

namespace weft_bench::noise_sum {

timed<double> run_seq(const std::vector<double>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] {
    std::mt19937_64 g(next_seed());
    double s = 0;
    for (const double x : v) s += x + unit(g);
    return s;
  });
}

}  // namespace weft_bench::noise_sum
