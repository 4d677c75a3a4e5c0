// SPDX-License-Identifier: MIT
// noise_sum with std::transform_reduce(std::execution::par): the standard offers no per-thread
// state, so a thread_local generator (made on a thread's first item, kept across calls).
#include <oneapi/tbb/global_control.h>

#include <execution>
#include <functional>
#include <numeric>

#include "noise_sum/config.hpp"

namespace weft_bench::noise_sum {

timed<double> run_stdpar(const std::vector<double>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return std::transform_reduce(std::execution::par, v.begin(), v.end(), 0.0, std::plus<>{},
                                 [](double x) {
                                   thread_local std::mt19937_64 g(next_seed());
                                   return x + unit(g);
                                 });
  });
}

}  // namespace weft_bench::noise_sum
