// SPDX-License-Identifier: MIT
// Idle CPU: what the process burns while main sleeps right after a parallel burst.
#pragma once

#include <chrono>
#include <thread>
#include <vector>

#include "common.hpp"
#include "fib/config.hpp"

namespace weft_bench::idle {

inline constexpr auto idle_time = std::chrono::milliseconds(200);
// Unmeasured pause before a peer's first burst, so that threads the previous peer (or
// workload) left spinning are parked and not billed to this one.
inline constexpr auto settle_time = std::chrono::milliseconds(300);

struct sample {
  double burst_ns;  // wall time of the burst itself
  double cpu_ns;    // process user+sys CPU during the idle_time sleep that follows it
};

// `reps` bursts of fib(fib::burst_n) on `threads` threads, each followed by the measured sleep.
using run_fn = std::vector<sample>(int threads, int reps);
run_fn run_seq;
run_fn run_weft;
run_fn run_weft_global;
run_fn run_tbb;
run_fn run_omp;

inline const peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"weft-global", &run_weft_global},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
    {"omp", WEFT_BENCH_IF_OMP(&run_omp)},
};

template <class Burst>
std::vector<sample> measure(int reps, Burst&& burst) {
  std::vector<sample> out;
  std::this_thread::sleep_for(settle_time);
  for (int i = 0; i < reps; ++i) {
    const std::int64_t t0 = now_ns();
    burst();
    const std::int64_t t1 = now_ns();
    const std::int64_t c0 = process_cpu_ns();
    std::this_thread::sleep_for(idle_time);
    const std::int64_t c1 = process_cpu_ns();
    out.push_back({static_cast<double>(t1 - t0), static_cast<double>(c1 - c0)});
  }
  return out;
}

}  // namespace weft_bench::idle
