// SPDX-License-Identifier: MIT
// fib(n) with a fork at every level (no cutoff): the sizes, the check, and each peer's entry.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common.hpp"

namespace weft_bench::fib {

inline constexpr int default_n = 35;
inline constexpr int quick_n = 28;
// Burst used by the idle workload: long enough to wake every thread, short enough to repeat.
inline constexpr int burst_n = 25;

constexpr std::uint64_t fib_value(int n) noexcept {
  std::uint64_t a = 0, b = 1;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t c = a + b;
    a = b;
    b = c;
  }
  return a;
}

// Every internal node of the call tree forks once: fib(n + 1) - 1 of them.
constexpr std::uint64_t num_joins(int n) noexcept { return n < 2 ? 0 : fib_value(n + 1) - 1; }

inline void check(const char* peer_name, int n, std::uint64_t got) {
  if (got == fib_value(n)) return;
  std::fprintf(stderr, "weft_bench: %s computed fib(%d) = %llu, expected %llu\n", peer_name, n,
               static_cast<unsigned long long>(got), static_cast<unsigned long long>(fib_value(n)));
  std::abort();
}

// Wall ns of `reps` runs of fib(n) on `threads` threads, after one untimed warm-up.
// Each peer owns its thread setup, so pools exist only while they are measured.
using run_fn = std::vector<double>(int n, int threads, int reps);
run_fn run_seq;
// `threads` independent copies of the sequential fib(n), one per std::thread, started
// together: the wall time of all copies. Against run_seq it shows how much parallel speedup
// this machine can give to this code at all (shared or throttled cores give less than N).
run_fn run_seq_copies;
run_fn run_weft;
// Both recursions with [[gnu::noinline]] (no level inlined into the next, so every level is
// a real call in each): the cost of a join over the cost of a call, the comparison Lace's
// and the literature's fib figures make. The compiler inlines fib_seq into itself several
// levels deep, which a join's recursion cannot match.
run_fn run_seq_calls;
run_fn run_weft_calls;
run_fn run_tbb;
run_fn run_omp;

// The bare recursions, for the idle workload's bursts. fib_weft runs on the current pool
// (the global one outside install); fib_tbb on the current arena; fib_omp opens its own
// parallel region.
std::uint64_t fib_weft(int n);
std::uint64_t fib_tbb(int n);
std::uint64_t fib_omp(int n, int threads);

inline const peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
    {"omp", WEFT_BENCH_IF_OMP(&run_omp)},
};

}  // namespace weft_bench::fib
