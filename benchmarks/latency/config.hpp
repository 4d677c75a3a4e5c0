// SPDX-License-Identifier: MIT
// Latency of one tiny fork-join issued from main: with the pool awake, and after it slept.
#pragma once

#include <chrono>
#include <thread>
#include <vector>

#include "common.hpp"

namespace weft_bench::latency {

// Long enough for every runtime here to park its threads (weft: ~34 yields; TBB and
// libgomp: well under a millisecond of spinning by default).
inline constexpr auto asleep_gap = std::chrono::milliseconds(50);

struct samples {
  std::vector<double> awake_ns;   // each call right after the previous one
  std::vector<double> asleep_ns;  // each call after asleep_gap of idleness
};

// `threads`: size of the pool to fork on; weft's global pool is sized by WEFT_NUM_THREADS
// or the hardware, and the runner passes that size so the other peers match it.
using run_fn = samples(int awake_calls, int asleep_calls, int threads);
run_fn run_seq;
run_fn run_weft;
run_fn run_tbb;
run_fn run_omp;

inline const peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
    {"omp", WEFT_BENCH_IF_OMP(&run_omp)},
};

// Times each call on its own: the median then reflects one call, clock read included
// (the seq peer shows that floor).
template <class Call>
samples measure(int awake_calls, int asleep_calls, Call&& call) {
  samples s;
  s.awake_ns.reserve(static_cast<std::size_t>(awake_calls));
  s.asleep_ns.reserve(static_cast<std::size_t>(asleep_calls));
  for (int i = 0; i < 100; ++i) keep(call());  // start threads, warm caches
  for (int i = 0; i < awake_calls; ++i) {
    const std::int64_t t0 = now_ns();
    keep(call());
    s.awake_ns.push_back(static_cast<double>(now_ns() - t0));
  }
  for (int i = 0; i < asleep_calls; ++i) {
    std::this_thread::sleep_for(asleep_gap);
    const std::int64_t t0 = now_ns();
    keep(call());
    s.asleep_ns.push_back(static_cast<double>(now_ns() - t0));
  }
  return s;
}

}  // namespace weft_bench::latency
