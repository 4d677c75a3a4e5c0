// SPDX-License-Identifier: MIT
// spawn_loop's baseline: the tasks' work in a plain loop.
#include <memory>

#include "spawn_throughput/config.hpp"

namespace weft_bench::spawn_throughput {

std::vector<double> run_seq_loop(long tasks, long steps, int /*threads*/, int reps) {
  auto counters = std::make_unique<counter[]>(max_threads);
  return time_reps(reps, [&] {
    for (int i = 0; i < max_threads; ++i) counters[i].value = 0;
    for (long i = 0; i < tasks; ++i) counters[0].value += task_count(i, steps);
    check("seq", tasks, counters.get());
  });
}

}  // namespace weft_bench::spawn_throughput
