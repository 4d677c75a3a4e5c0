// SPDX-License-Identifier: MIT
// unbalanced on oneTBB: parallel_reduce over a blocked_range (auto_partitioner).
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <functional>

#include "unbalanced/config.hpp"

namespace weft_bench::unbalanced {

timed<std::uint64_t> run_tbb(std::int64_t n, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::int64_t>(0, n), std::uint64_t{0},
        [](const tbb::blocked_range<std::int64_t>& r, std::uint64_t s) {
          for (std::int64_t i = r.begin(); i < r.end(); ++i) s += cost(i);
          return s;
        },
        std::plus<>{});
  });
}

}  // namespace weft_bench::unbalanced
