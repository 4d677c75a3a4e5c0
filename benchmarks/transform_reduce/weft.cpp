// SPDX-License-Identifier: MIT
// transform_reduce on weft: weft::transform_reduce(weft::par, ...), inside thread_pool::install.
#include <weft/weft.hpp>

#include "transform_reduce/config.hpp"

namespace weft_bench::transform_reduce {

timed<double> run_weft(const input& in, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(reps, [&] {
      return weft::transform_reduce(weft::par, in.a.begin(), in.a.end(), in.b.begin(), 0.0);
    });
  });
}

}  // namespace weft_bench::transform_reduce
