// SPDX-License-Identifier: MIT
// find_early on weft: iter(v).find_first(p) and iter(v).position_first(p), inside
// thread_pool::install.
#include <weft/weft.hpp>

#include "find_early/config.hpp"

namespace weft_bench::find_early {

timed<std::size_t> run_weft(const std::vector<std::int32_t>& v, int threads, int calls) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(calls, [&] {
      const auto hit = weft::iter(v).find_first(is_match);
      return hit ? static_cast<std::size_t>(*hit) : v.size();  // the match holds its index
    });
  });
}

timed<std::size_t> run_weft_position(const std::vector<std::int32_t>& v, int threads,
                                     int calls) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(calls,
                      [&] { return weft::iter(v).position_first(is_match).value_or(v.size()); });
  });
}

}  // namespace weft_bench::find_early
