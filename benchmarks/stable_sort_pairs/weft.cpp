// SPDX-License-Identifier: MIT
// stable_sort_pairs on weft: the range overload with a projection on the key, which takes the
// radix path; inside thread_pool::install. weft-lambda projects by a lambda that may throw
// (not noexcept).
#include <weft/weft.hpp>

#include "stable_sort_pairs/config.hpp"

namespace weft_bench::stable_sort_pairs {

timed<std::uint64_t> run_weft(const std::vector<pair_t>& in, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_sorts(in, reps, checksum,
                      [](turn_buffer<pair_t>& v) { weft::stable_sort(v, {}, &pair_t::first); });
  });
}

timed<std::uint64_t> run_weft_lambda(const std::vector<pair_t>& in, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_sorts(in, reps, checksum, [](turn_buffer<pair_t>& v) {
      weft::stable_sort(v, {}, [](const pair_t& p) { return p.first; });
    });
  });
}

}  // namespace weft_bench::stable_sort_pairs
