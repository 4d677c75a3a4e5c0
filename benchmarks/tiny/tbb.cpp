// SPDX-License-Identifier: MIT
// tiny on oneTBB: parallel_reduce over a blocked_range, each chunk summed with 8 lanes.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <functional>

#include "tiny/config.hpp"

namespace weft_bench::tiny {

timed<double> run_tbb(const std::vector<double>& a, int threads, int calls) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_batches(calls, [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, a.size()), 0.0,
        [&](const tbb::blocked_range<std::size_t>& r, double acc) {
          return acc + sum_sq_lanes(a.data() + r.begin(), r.size());
        },
        std::plus<>{});
  });
}

}  // namespace weft_bench::tiny
