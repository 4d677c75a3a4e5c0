// SPDX-License-Identifier: MIT
// tiny on oneTBB: parallel_reduce over a blocked_range, each chunk summed with 8 lanes
// (sum_sq's).
#include <oneapi/tbb/global_control.h>

#include "tiny/config.hpp"

namespace weft_bench::tiny {

timed<double> run_tbb(const std::vector<double>& a, int threads, int calls) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_batches(calls, [&] { return sum_sq::sum_sq_tbb(a); });
}

}  // namespace weft_bench::tiny
