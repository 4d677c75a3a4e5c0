// SPDX-License-Identifier: MIT
// find_early on OpenMP: a parallel region whose threads take runs of items round-robin, in
// order, and stop at the first run that starts right of a known match (CAS-min index).
// A worksharing `for` cannot break out, and `omp cancel` needs OMP_CANCELLATION=true.
#include <omp.h>

#include "find_early/config.hpp"

namespace weft_bench::find_early {

timed<std::size_t> run_omp(const std::vector<std::int32_t>& v, int threads, int calls) {
  const std::size_t n = v.size();
  return time_calls(calls, [&] {
    std::atomic<std::size_t> best{n};
#pragma omp parallel num_threads(threads)
    {
      const auto stride = static_cast<std::size_t>(omp_get_num_threads()) * check_every;
      for (auto lo = static_cast<std::size_t>(omp_get_thread_num()) * check_every;
           lo < n && lo < best.load(std::memory_order_relaxed); lo += stride)
        scan_checked(v, lo, std::min(n, lo + check_every), best);
    }
    return best.load();
  });
}

}  // namespace weft_bench::find_early
