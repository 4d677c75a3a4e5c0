// SPDX-License-Identifier: MIT
// for_each baseline: std::for_each without a policy.
#include <algorithm>

#include "for_each/config.hpp"

namespace weft_bench::for_each {

timed<double> run_seq(const std::vector<double>& in, int /*threads*/, int reps) {
  turn_buffer<double> v(in.begin(), in.end());
  auto out = time_calls(reps, [&] {
    std::for_each(v.begin(), v.end(), update);
    return 0.0;
  });
  out.result = input_checksum(v, out.calls);
  return out;
}

}  // namespace weft_bench::for_each
