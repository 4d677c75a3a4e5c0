// SPDX-License-Identifier: MIT
// sort_u64 baseline: std::sort without a policy.
#include <algorithm>

#include "sort_u64/config.hpp"

namespace weft_bench::sort_u64 {

timed<std::uint64_t> run_seq(const std::vector<std::uint64_t>& in, int /*threads*/, int reps) {
  return time_sorts(in, reps, checksum,
                    [](turn_buffer<std::uint64_t>& v) { std::sort(v.begin(), v.end()); });
}

}  // namespace weft_bench::sort_u64
