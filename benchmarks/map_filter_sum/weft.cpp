// SPDX-License-Identifier: MIT
// map_filter_sum on weft: range(0, n).filter(p).map(f).sum(), inside thread_pool::install.
#include <weft/weft.hpp>

#include "map_filter_sum/config.hpp"

namespace weft_bench::map_filter_sum {

timed<std::int64_t> run_weft(std::int64_t n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(reps, [&] {
      return weft::range(std::int64_t{0}, n).filter(keep_item).map(value_of).sum();
    });
  });
}

}  // namespace weft_bench::map_filter_sum
