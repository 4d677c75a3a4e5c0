// SPDX-License-Identifier: MIT
// sum_sq on oneTBB: parallel_reduce over a blocked_range, each chunk summed with 8 lanes.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <functional>

#include "sum_sq/config.hpp"

namespace weft_bench::sum_sq {

timed<double> run_tbb(const std::vector<double>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, v.size()), 0.0,
        [&](const tbb::blocked_range<std::size_t>& r, double acc) {
          return acc + sum_sq_lanes(v.data() + r.begin(), r.size());
        },
        std::plus<>{});
  });
}

}  // namespace weft_bench::sum_sq
