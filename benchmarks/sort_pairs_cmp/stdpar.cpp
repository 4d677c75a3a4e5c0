// SPDX-License-Identifier: MIT
// sort_pairs_cmp with std::sort(std::execution::par) (libstdc++ runs it on oneTBB).
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <execution>

#include "sort_pairs_cmp/config.hpp"

namespace weft_bench::sort_pairs_cmp {

timed<std::uint64_t> run_stdpar(const std::vector<pair_t>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_sorts(in, reps, checksum, [](turn_buffer<pair_t>& v) {
    std::sort(std::execution::par, v.begin(), v.end(), by_first);
  });
}

}  // namespace weft_bench::sort_pairs_cmp
