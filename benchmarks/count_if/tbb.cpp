// SPDX-License-Identifier: MIT
// count_if on oneTBB: parallel_reduce over a blocked_range, std::count_if per range.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <algorithm>
#include <functional>

#include "count_if/config.hpp"

namespace weft_bench::count_if {

timed<std::int64_t> run_tbb(const std::vector<std::int32_t>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, v.size()), std::int64_t{0},
        [&](const tbb::blocked_range<std::size_t>& r, std::int64_t c) {
          return c + std::count_if(v.begin() + static_cast<std::ptrdiff_t>(r.begin()),
                                   v.begin() + static_cast<std::ptrdiff_t>(r.end()), pred);
        },
        std::plus<>{});
  });
}

}  // namespace weft_bench::count_if
