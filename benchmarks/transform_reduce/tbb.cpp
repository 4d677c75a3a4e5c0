// SPDX-License-Identifier: MIT
// transform_reduce on oneTBB: parallel_reduce over a blocked_range, std::transform_reduce per range.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <functional>
#include <numeric>

#include "transform_reduce/config.hpp"

namespace weft_bench::transform_reduce {

timed<double> run_tbb(const input& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, in.a.size()), 0.0,
        [&](const tbb::blocked_range<std::size_t>& r, double s) {
          return std::transform_reduce(in.a.begin() + static_cast<std::ptrdiff_t>(r.begin()),
                                       in.a.begin() + static_cast<std::ptrdiff_t>(r.end()),
                                       in.b.begin() + static_cast<std::ptrdiff_t>(r.begin()), s);
        },
        std::plus<>{});
  });
}

}  // namespace weft_bench::transform_reduce
