// SPDX-License-Identifier: MIT
// fine_sum: sum_sq's sum over a short vector cut into 64 pieces per thread, each piece a fork
// of its own in every peer: what a fine-grained fork costs (size, piece length, peers).
#pragma once

#include <cstddef>
#include <vector>

#include "common.hpp"
#include "sum_sq/config.hpp"

namespace weft_bench::fine_sum {

inline constexpr std::size_t default_n = 1'000'000;
inline constexpr std::size_t quick_n = 200'000;
inline constexpr std::size_t pieces_per_thread = 64;

// The longest piece: halving n log2(64 t) times (weft's with_max_len, oneTBB's
// simple_partitioner) leaves pieces no longer than this when t is a power of two, so every
// peer makes 64 t pieces; OpenMP's dynamic schedule hands out chunks of exactly this length.
inline std::size_t piece_len(std::size_t n, int threads) {
  const std::size_t pieces = pieces_per_thread * static_cast<std::size_t>(threads);
  return (n + pieces - 1) / pieces;
}

// Wall ns of `reps` sums of v on `threads` threads after one warm-up, and the sum.
using run_fn = timed<double>(const std::vector<double>& v, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_omp;
// std::execution::par takes no piece length: it has no entry here.
inline constexpr auto peers = standard_peers<run_fn>(&run_seq, &run_weft, &run_tbb, nullptr,
                                                     &run_omp);

}  // namespace weft_bench::fine_sum
