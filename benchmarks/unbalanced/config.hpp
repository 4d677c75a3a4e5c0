// SPDX-License-Identifier: MIT
// unbalanced: items whose cost grows linearly with their index, summed: the last half of the
// range holds 3/4 of the work, so an even static split leaves one thread idle. Size, cost, peers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common.hpp"

namespace weft_bench::unbalanced {

inline constexpr std::size_t default_n = 2'000;
inline constexpr std::size_t quick_n = 1'000;
// Rounds of the dependent chain per unit of index: about 2.5 ms per 1,000 items at the end
// of the range, ~100 ms for the whole default range, on the reference machine.
inline constexpr std::uint64_t rounds_per_index = 25;

// Item i: i * rounds_per_index rounds of a multiply-xorshift chain; each round depends on the
// previous one, so the loop can neither be vectorised nor folded away.
inline std::uint64_t cost(std::int64_t i) {
  std::uint64_t x = static_cast<std::uint64_t>(i) + 1;
  const std::uint64_t rounds = static_cast<std::uint64_t>(i) * rounds_per_index;
  for (std::uint64_t k = 0; k < rounds; ++k) x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL;
  return x;
}

// Wall ns of `reps` sums of cost(i) over [0, n) on `threads` threads after one warm-up, and
// the sum (mod 2^64).
using run_fn = timed<std::uint64_t>(std::int64_t n, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::unbalanced
