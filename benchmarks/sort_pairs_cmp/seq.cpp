// SPDX-License-Identifier: MIT
// sort_pairs_cmp baseline: std::sort by the key comparator.
#include <algorithm>

#include "sort_pairs_cmp/config.hpp"

namespace weft_bench::sort_pairs_cmp {

timed<std::uint64_t> run_seq(const std::vector<pair_t>& in, int /*threads*/, int reps) {
  return time_sorts(in, reps, checksum,
                    [](turn_buffer<pair_t>& v) { std::sort(v.begin(), v.end(), by_first); });
}

}  // namespace weft_bench::sort_pairs_cmp
