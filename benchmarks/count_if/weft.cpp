// SPDX-License-Identifier: MIT
// count_if on weft: weft::count_if(weft::par, ...), inside thread_pool::install.
#include <weft/weft.hpp>

#include "count_if/config.hpp"

namespace weft_bench::count_if {

timed<std::int64_t> run_weft(const std::vector<std::int32_t>& v, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(reps, [&] {
      return static_cast<std::int64_t>(weft::count_if(weft::par, v.begin(), v.end(), pred));
    });
  });
}

}  // namespace weft_bench::count_if
