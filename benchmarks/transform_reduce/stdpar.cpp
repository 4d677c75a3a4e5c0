// SPDX-License-Identifier: MIT
// transform_reduce with std::transform_reduce(std::execution::par).
#include <oneapi/tbb/global_control.h>

#include <execution>
#include <numeric>

#include "transform_reduce/config.hpp"

namespace weft_bench::transform_reduce {

timed<double> run_stdpar(const input& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return std::transform_reduce(std::execution::par, in.a.begin(), in.a.end(), in.b.begin(), 0.0);
  });
}

}  // namespace weft_bench::transform_reduce
