// SPDX-License-Identifier: MIT
// scan baseline: std::inclusive_scan without a policy.
#include <numeric>

#include "scan/config.hpp"

namespace weft_bench::scan {

timed<std::uint64_t> run_seq(const std::vector<std::int64_t>& in, int /*threads*/, int reps) {
  turn_buffer<std::int64_t> out(in.size(), 1);
  auto t = time_calls(reps, [&] {
    std::inclusive_scan(in.begin(), in.end(), out.begin());
    return std::uint64_t{0};
  });
  t.result = checksum(out);
  return t;
}

}  // namespace weft_bench::scan
