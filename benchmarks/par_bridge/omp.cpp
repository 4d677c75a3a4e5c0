// SPDX-License-Identifier: MIT
// par_bridge on OpenMP: one thread reads the generator and makes a task per item.
#include <atomic>

#include "par_bridge/config.hpp"

namespace weft_bench::par_bridge {

timed<std::uint64_t> run_omp(const std::size_t& n, int threads, int reps) {
  return time_calls(reps, [&] {
    std::atomic<std::uint64_t> total{0};
#pragma omp parallel num_threads(threads)
#pragma omp single
    {
      counter source{0, n};
      while (const auto x = source()) {
        const std::uint64_t item = *x;
#pragma omp task firstprivate(item) shared(total)
        total.fetch_add(work(item), std::memory_order_relaxed);
      }
    }
    return total.load();
  });
}

}  // namespace weft_bench::par_bridge
