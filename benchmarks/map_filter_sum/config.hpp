// SPDX-License-Identifier: MIT
// map_filter_sum: over the integers [0, n), the sum of x*x % 7 where x % 3 == 0
// (compute-bound, no memory traffic): size, the item functions, peers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common.hpp"

namespace weft_bench::map_filter_sum {

inline constexpr std::size_t default_n = 400'000'000;
inline constexpr std::size_t quick_n = 40'000'000;

inline constexpr auto keep_item = [](std::int64_t x) { return x % 3 == 0; };
inline constexpr auto value_of = [](std::int64_t x) { return x * x % 7; };

// Wall ns of `reps` runs over [0, n) on `threads` threads after one warm-up, and the sum.
using run_fn = timed<std::int64_t>(std::int64_t n, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::map_filter_sum
