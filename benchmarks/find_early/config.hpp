// SPDX-License-Identifier: MIT
// find_early: the first match sits at index 1,000 of a large vector: the time of the whole
// search call shows how fast a runtime stops the work it no longer needs. Size, data, peers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common.hpp"

namespace weft_bench::find_early {

inline constexpr std::size_t default_n = 100'000'000;
inline constexpr std::size_t quick_n = 10'000'000;
inline constexpr std::size_t position = 1'000;
inline constexpr int default_calls = 201;
inline constexpr int quick_calls = 51;
// Items a hand-written peer scans between looks at the best match so far.
inline constexpr std::size_t check_every = 4'096;

// Zeros but for one element, which holds its own index: a search that returns the item
// (find_first) then also says where it found it.
inline std::vector<std::int32_t> make_input(std::size_t n) {
  std::vector<std::int32_t> v(n, 0);
  if (position < n) v[position] = static_cast<std::int32_t>(position);
  return v;
}

inline constexpr auto is_match = [](std::int32_t x) { return x != 0; };

// For the hand-written peers: lowers `best` to i unless it already holds a smaller index.
inline void record_min(std::atomic<std::size_t>& best, std::size_t i) {
  std::size_t cur = best.load(std::memory_order_relaxed);
  while (i < cur && !best.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {
  }
}

// Scans [lo, hi) in runs of check_every items, giving up once a match left of the next run
// is known; records its own first match.
inline void scan_checked(const std::vector<std::int32_t>& v, std::size_t lo, std::size_t hi,
                         std::atomic<std::size_t>& best) {
  while (lo < hi && lo < best.load(std::memory_order_relaxed)) {
    const std::size_t end = std::min(hi, lo + check_every);
    const auto it = std::find_if(v.begin() + static_cast<std::ptrdiff_t>(lo),
                                 v.begin() + static_cast<std::ptrdiff_t>(end), is_match);
    if (it != v.begin() + static_cast<std::ptrdiff_t>(end)) {
      record_min(best, static_cast<std::size_t>(it - v.begin()));
      return;
    }
    lo = end;
  }
}

// Wall ns of each of `calls` searches on `threads` threads (after one warm-up), and the index
// found (v.size() if none).
using run_fn = timed<std::size_t>(const std::vector<std::int32_t>& v, int threads, int calls);
run_fn run_seq, run_weft, run_weft_position, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers =
    with_peer(standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp), 2,
              {"weft-pos", &run_weft_position});

}  // namespace weft_bench::find_early
