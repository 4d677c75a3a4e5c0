// SPDX-License-Identifier: MIT
// transform_reduce baseline: std::transform_reduce without a policy (the inner product).
#include <numeric>

#include "transform_reduce/config.hpp"

namespace weft_bench::transform_reduce {

timed<double> run_seq(const input& in, int /*threads*/, int reps) {
  return time_calls(reps, [&] {
    return std::transform_reduce(in.a.begin(), in.a.end(), in.b.begin(), 0.0);
  });
}

}  // namespace weft_bench::transform_reduce
