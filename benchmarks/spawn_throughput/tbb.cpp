// SPDX-License-Identifier: MIT
// spawn_throughput on oneTBB: tbb::task_group::run from one thread, then wait.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <memory>

#include "spawn_throughput/config.hpp"

namespace weft_bench::spawn_throughput {

std::vector<double> run_tbb(long tasks, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  auto counters = std::make_unique<counter[]>(max_threads);
  return time_reps(reps, [&] {
    for (int i = 0; i < max_threads; ++i) counters[i].value = 0;
    counter* const c = counters.get();
    tbb::task_group g;
    for (long i = 0; i < tasks; ++i)
      g.run([c] { ++c[tbb::this_task_arena::current_thread_index()].value; });
    g.wait();
    check("tbb", tasks, c);
  });
}

std::vector<double> run_tbb_loop(long tasks, long steps, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  auto counters = std::make_unique<counter[]>(max_threads);
  return time_reps(reps, [&] {
    for (int i = 0; i < max_threads; ++i) counters[i].value = 0;
    counter* const c = counters.get();
    tbb::task_group g;
    for (long i = 0; i < tasks; ++i)
      g.run([c, i, steps] {
        c[tbb::this_task_arena::current_thread_index()].value += task_count(i, steps);
      });
    g.wait();
    check("tbb", tasks, c);
  });
}

}  // namespace weft_bench::spawn_throughput
