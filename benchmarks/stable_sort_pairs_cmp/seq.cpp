// SPDX-License-Identifier: MIT
// stable_sort_pairs_cmp baseline: std::stable_sort by the key comparator.
#include <algorithm>

#include "stable_sort_pairs_cmp/config.hpp"

namespace weft_bench::stable_sort_pairs_cmp {

timed<std::uint64_t> run_seq(const std::vector<pair_t>& in, int /*threads*/, int reps) {
  return time_sorts(in, reps, checksum,
                    [](turn_buffer<pair_t>& v) { std::stable_sort(v.begin(), v.end(), by_key); });
}

}  // namespace weft_bench::stable_sort_pairs_cmp
