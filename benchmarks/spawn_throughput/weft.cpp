// SPDX-License-Identifier: MIT
// spawn_throughput on weft: task_scope::spawn from the scope's body.
#include <weft/weft.hpp>

#include <memory>

#include "spawn_throughput/config.hpp"

namespace weft_bench::spawn_throughput {

std::vector<double> run_weft(long tasks, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  auto counters = std::make_unique<counter[]>(max_threads);
  return time_reps(reps, [&] {
    for (int i = 0; i < max_threads; ++i) counters[i].value = 0;
    counter* const c = counters.get();
    pool.install([&] {
      weft::scope([&](weft::task_scope& s) {
        for (long i = 0; i < tasks; ++i) s.spawn([c] { ++c[*weft::thread_index()].value; });
      });
    });
    check("weft", tasks, c);
  });
}

std::vector<double> run_weft_loop(long tasks, long steps, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  auto counters = std::make_unique<counter[]>(max_threads);
  return time_reps(reps, [&] {
    for (int i = 0; i < max_threads; ++i) counters[i].value = 0;
    counter* const c = counters.get();
    pool.install([&] {
      weft::scope([&](weft::task_scope& s) {
        for (long i = 0; i < tasks; ++i)
          s.spawn([c, i, steps] { c[*weft::thread_index()].value += task_count(i, steps); });
      });
    });
    check("weft", tasks, c);
  });
}

}  // namespace weft_bench::spawn_throughput
