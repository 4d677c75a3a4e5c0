// SPDX-License-Identifier: MIT
// fine_sum on oneTBB: parallel_reduce with simple_partitioner, which splits the blocked_range
// until each piece is at most its grain (piece_len), each piece summed with 8 lanes.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/partitioner.h>

#include <functional>

#include "fine_sum/config.hpp"

namespace weft_bench::fine_sum {

timed<double> run_tbb(const std::vector<double>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  const std::size_t piece = piece_len(v.size(), threads);
  return time_calls(reps, [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, v.size(), piece), 0.0,
        [&](const tbb::blocked_range<std::size_t>& r, double acc) {
          return acc + sum_sq::sum_sq_lanes(v.data() + r.begin(), r.size());
        },
        std::plus<>{}, tbb::simple_partitioner{});
  });
}

}  // namespace weft_bench::fine_sum
