// SPDX-License-Identifier: MIT
// stable_sort_pairs_cmp on weft: weft::stable_sort(weft::par, ..., comparator), inside
// thread_pool::install.
#include <weft/weft.hpp>

#include "stable_sort_pairs_cmp/config.hpp"

namespace weft_bench::stable_sort_pairs_cmp {

timed<std::uint64_t> run_weft(const std::vector<pair_t>& in, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_sorts(in, reps, checksum, [](turn_buffer<pair_t>& v) {
      weft::stable_sort(weft::par, v.begin(), v.end(), by_key);
    });
  });
}

}  // namespace weft_bench::stable_sort_pairs_cmp
