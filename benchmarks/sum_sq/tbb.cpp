// SPDX-License-Identifier: MIT
// sum_sq on oneTBB: parallel_reduce over a blocked_range, each chunk summed with 8 lanes.
#include <oneapi/tbb/global_control.h>

#include "sum_sq/config.hpp"

namespace weft_bench::sum_sq {

timed<double> run_tbb(const std::vector<double>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] { return sum_sq_tbb(v); });
}

}  // namespace weft_bench::sum_sq
