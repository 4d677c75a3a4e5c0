// SPDX-License-Identifier: MIT
// par_bridge on weft: par_bridge(generator).map(work).sum().
#include <weft/weft.hpp>

#include "par_bridge/config.hpp"

namespace weft_bench::par_bridge {

timed<std::uint64_t> run_weft(const std::size_t& n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(reps, [&] { return weft::par_bridge(counter{0, n}).map(work).sum(); });
  });
}

}  // namespace weft_bench::par_bridge
