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

// spawn_loop: the same loop with tasks that compute, `steps` steps of an LCG each (10,000
// steps: ~13 us here): what a task_group or scope filled in a loop looks like in a program.
// The spawner pushes the tasks far faster than a sleeping thread wakes, so the others get
// work only if the spawner keeps offering it while it runs the tasks itself.
inline constexpr long loop_tasks = 3'000;
inline constexpr long quick_loop_tasks = 600;
inline constexpr long loop_steps = 10'000;

// One task's work: out of line, so that each peer's task calls the same code.
[[gnu::noinline]] inline std::uint64_t task_work(std::uint64_t seed, long steps) {
  for (long i = 0; i < steps; ++i) seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return seed;
}
// The counter step of one task: 1, plus 0 unless the LCG hits a value it never reaches from
// these seeds (so that the work cannot be dropped).
inline long task_count(long i, long steps) {
  return 1 + (task_work(static_cast<std::uint64_t>(i), steps) == 0 ? 1 : 0);
}

// Wall ns of `reps` rounds of `tasks` spawns of `steps` steps each and one wait.
using loop_fn = std::vector<double>(long tasks, long steps, int threads, int reps);
loop_fn run_seq_loop;
loop_fn run_weft_loop;
loop_fn run_tbb_loop;
loop_fn run_omp_loop;

inline const peer<loop_fn> loop_peers[] = {
    {"seq", &run_seq_loop},
    {"weft", &run_weft_loop},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb_loop)},
    {"omp", WEFT_BENCH_IF_OMP(&run_omp_loop)},
};

}  // namespace weft_bench::spawn_throughput
