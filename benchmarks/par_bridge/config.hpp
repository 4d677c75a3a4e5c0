// SPDX-License-Identifier: MIT
// par_bridge: a sequential generator of n numbers, about a microsecond of work on each, the
// results summed: weft::par_bridge(generator).map(work).sum() against oneTBB's
// parallel_pipeline (a serial input filter, a parallel work filter) and OpenMP's single
// producer of tasks. Size, input, peers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "common.hpp"

namespace weft_bench::par_bridge {

// A microsecond of work per item makes n = 1 M a second of sequential time: enough for the
// ratio, short enough for a table of every peer at 1 and 2 threads.
inline constexpr std::size_t default_n = 1'000'000;
inline constexpr std::size_t quick_n = 20'000;

// ~1 us of dependent multiply-xorshift steps (a 2-vCPU Zen host: 350 steps).
inline std::uint64_t work(std::uint64_t x) {
  for (int k = 0; k < 350; ++k) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    x ^= x >> 29;
  }
  return x;
}

// The sequential source: 0, 1, ..., n - 1, then nothing.
struct counter {
  std::uint64_t next;
  std::uint64_t n;
  std::optional<std::uint64_t> operator()() {
    if (next == n) return std::nullopt;
    return next++;
  }
};

// The input is only its size: each peer makes its own generator.
inline std::size_t make_input(std::size_t n) { return n; }

using run_fn = timed<std::uint64_t>(const std::size_t& n, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_omp;
inline constexpr std::array<peer<run_fn>, 4> peers{{{"seq", &run_seq},
                                                     {"weft", &run_weft},
                                                     {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
                                                     {"omp", WEFT_BENCH_IF_OMP(&run_omp)}}};

}  // namespace weft_bench::par_bridge
