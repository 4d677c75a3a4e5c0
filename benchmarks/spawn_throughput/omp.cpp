// SPDX-License-Identifier: MIT
// spawn_throughput on OpenMP: #pragma omp task from one thread of a parallel region, then
// the region's end waits.
#include <omp.h>

#include <memory>

#include "spawn_throughput/config.hpp"

namespace weft_bench::spawn_throughput {

std::vector<double> run_omp(long tasks, int threads, int reps) {
  auto counters = std::make_unique<counter[]>(max_threads);
  return time_reps(reps, [&] {
    for (int i = 0; i < max_threads; ++i) counters[i].value = 0;
    counter* const c = counters.get();
#pragma omp parallel num_threads(threads) firstprivate(c, tasks)
#pragma omp single
    for (long i = 0; i < tasks; ++i) {
#pragma omp task firstprivate(c)
      ++c[omp_get_thread_num()].value;
    }
    check("omp", tasks, c);
  });
}

std::vector<double> run_omp_loop(long tasks, long steps, int threads, int reps) {
  auto counters = std::make_unique<counter[]>(max_threads);
  return time_reps(reps, [&] {
    for (int i = 0; i < max_threads; ++i) counters[i].value = 0;
    counter* const c = counters.get();
#pragma omp parallel num_threads(threads) firstprivate(c, tasks, steps)
#pragma omp single
    for (long i = 0; i < tasks; ++i) {
#pragma omp task firstprivate(c, i, steps)
      c[omp_get_thread_num()].value += task_count(i, steps);
    }
    check("omp", tasks, c);
  });
}

}  // namespace weft_bench::spawn_throughput
