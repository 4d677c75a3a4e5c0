// SPDX-License-Identifier: MIT
// map_filter_sum on OpenMP: `parallel for reduction(+)` over the integers.
#include "map_filter_sum/config.hpp"

namespace weft_bench::map_filter_sum {

timed<std::int64_t> run_omp(std::int64_t n, int threads, int reps) {
  return time_calls(reps, [&] {
    std::int64_t s = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : s)
    for (std::int64_t x = 0; x < n; ++x)
      if (keep_item(x)) s += value_of(x);
    return s;
  });
}

}  // namespace weft_bench::map_filter_sum
