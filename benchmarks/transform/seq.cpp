// SPDX-License-Identifier: MIT
// transform baseline: std::transform without a policy.
#include <algorithm>

#include "transform/config.hpp"

namespace weft_bench::transform {

timed<double> run_seq(const std::vector<double>& in, int /*threads*/, int reps) {
  turn_buffer<double> out(in.size(), -1.0);
  auto t = time_calls(reps, [&] {
    std::transform(in.begin(), in.end(), out.begin(), affine);
    return 0.0;
  });
  t.result = output_checksum(out);
  return t;
}

}  // namespace weft_bench::transform
