// SPDX-License-Identifier: MIT
// spawn_throughput: tasks spawned from one thread into one group (a weft::scope, a
// tbb::task_group, an OpenMP taskgroup), then waited for. Each task bumps its thread's
// counter, so the total checks that every task ran once.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common.hpp"

namespace weft_bench::spawn_throughput {

inline constexpr long default_tasks = 1'000'000;
inline constexpr long quick_tasks = 100'000;

// One counter per thread index, each on its own line.
struct alignas(128) counter {
  long value = 0;
};
inline constexpr int max_threads = 256;

inline void check(const char* peer_name, long expected, const counter* counters) {
  long got = 0;
  for (int i = 0; i < max_threads; ++i) got += counters[i].value;
  if (got == expected) return;
  std::fprintf(stderr, "weft_bench: %s ran %ld of %ld spawned tasks\n", peer_name, got, expected);
  std::abort();
}

// Wall ns of `reps` rounds of `tasks` spawns and one wait on `threads` threads.
using run_fn = std::vector<double>(long tasks, int threads, int reps);
run_fn run_weft;
run_fn run_tbb;
run_fn run_omp;

inline const peer<run_fn> peers[] = {
    {"weft", &run_weft},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
    {"omp", WEFT_BENCH_IF_OMP(&run_omp)},
};

}  // namespace weft_bench::spawn_throughput
