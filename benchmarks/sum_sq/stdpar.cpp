// SPDX-License-Identifier: MIT
// sum_sq with std::transform_reduce(std::execution::par); libstdc++ runs it on oneTBB, so a
// tbb::global_control caps its threads.
#include <oneapi/tbb/global_control.h>

#include <execution>
#include <functional>
#include <numeric>

#include "sum_sq/config.hpp"

namespace weft_bench::sum_sq {

timed<double> run_stdpar(const std::vector<double>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return std::transform_reduce(std::execution::par, v.begin(), v.end(), 0.0, std::plus<>{},
                                 square);
  });
}

}  // namespace weft_bench::sum_sq
