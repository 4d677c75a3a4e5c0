// SPDX-License-Identifier: MIT
// sum_sq on weft: iter(v).map(square).sum(), inside thread_pool::install.
#include <weft/weft.hpp>

#include "sum_sq/config.hpp"

namespace weft_bench::sum_sq {

timed<double> run_weft(const std::vector<double>& v, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(reps, [&] { return weft::iter(v).map(square).sum(); });
  });
}

}  // namespace weft_bench::sum_sq
