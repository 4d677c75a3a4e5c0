// SPDX-License-Identifier: MIT
// find_if on weft: weft::find_if(weft::par, ...), inside thread_pool::install.
#include <weft/weft.hpp>

#include "find_if/config.hpp"

namespace weft_bench::find_if {

timed<std::size_t> run_weft(const std::vector<std::int32_t>& v, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(reps, [&] {
      return static_cast<std::size_t>(weft::find_if(weft::par, v.begin(), v.end(), pred) -
                                      v.begin());
    });
  });
}

}  // namespace weft_bench::find_if
