// SPDX-License-Identifier: MIT
// map_filter_sum on oneTBB: parallel_reduce over a blocked_range of the integers.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <functional>

#include "map_filter_sum/config.hpp"

namespace weft_bench::map_filter_sum {

timed<std::int64_t> run_tbb(std::int64_t n, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::int64_t>(0, n), std::int64_t{0},
        [](const tbb::blocked_range<std::int64_t>& r, std::int64_t s) {
          for (std::int64_t x = r.begin(); x < r.end(); ++x)
            if (keep_item(x)) s += value_of(x);
          return s;
        },
        std::plus<>{});
  });
}

}  // namespace weft_bench::map_filter_sum
