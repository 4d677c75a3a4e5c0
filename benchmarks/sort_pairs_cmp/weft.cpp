// SPDX-License-Identifier: MIT
// sort_pairs_cmp on weft: weft::sort(weft::par, ..., comparator), inside thread_pool::install.
#include <weft/weft.hpp>

#include "sort_pairs_cmp/config.hpp"

namespace weft_bench::sort_pairs_cmp {

timed<std::uint64_t> run_weft(const std::vector<pair_t>& in, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_sorts(in, reps, checksum, [](turn_buffer<pair_t>& v) {
      weft::sort(weft::par, v.begin(), v.end(), by_first);
    });
  });
}

}  // namespace weft_bench::sort_pairs_cmp
