// SPDX-License-Identifier: MIT
// tiny with std::transform_reduce(std::execution::par), threads capped by tbb::global_control.
#include <oneapi/tbb/global_control.h>

#include <execution>
#include <functional>
#include <numeric>

#include "tiny/config.hpp"

namespace weft_bench::tiny {

timed<double> run_stdpar(const std::vector<double>& a, int threads, int calls) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_batches(calls, [&] {
    return std::transform_reduce(std::execution::par, a.begin(), a.end(), 0.0, std::plus<>{},
                                 square);
  });
}

}  // namespace weft_bench::tiny
