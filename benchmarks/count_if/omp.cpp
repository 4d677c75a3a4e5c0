// SPDX-License-Identifier: MIT
// count_if on OpenMP: `parallel for reduction(+)`.
#include "count_if/config.hpp"

namespace weft_bench::count_if {

timed<std::int64_t> run_omp(const std::vector<std::int32_t>& v, int threads, int reps) {
  const std::int32_t* x = v.data();
  const std::size_t n = v.size();
  return time_calls(reps, [&] {
    std::int64_t c = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : c)
    for (std::size_t i = 0; i < n; ++i) c += pred(x[i]) ? 1 : 0;
    return c;
  });
}

}  // namespace weft_bench::count_if
