// SPDX-License-Identifier: MIT
// unbalanced on weft: range(0, n).map(cost).sum(), inside thread_pool::install.
#include <weft/weft.hpp>

#include "unbalanced/config.hpp"

namespace weft_bench::unbalanced {

timed<std::uint64_t> run_weft(std::int64_t n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(reps, [&] { return weft::range(std::int64_t{0}, n).map(cost).sum(); });
  });
}

}  // namespace weft_bench::unbalanced
