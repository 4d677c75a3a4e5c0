// SPDX-License-Identifier: MIT
// sort_u64 on weft: weft::sort(weft::par, ...), inside thread_pool::install.
#include <weft/weft.hpp>

#include "sort_u64/config.hpp"

namespace weft_bench::sort_u64 {

timed<std::uint64_t> run_weft(const std::vector<std::uint64_t>& in, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_sorts(in, reps, checksum, [](turn_buffer<std::uint64_t>& v) {
      weft::sort(weft::par, v.begin(), v.end());
    });
  });
}

}  // namespace weft_bench::sort_u64
