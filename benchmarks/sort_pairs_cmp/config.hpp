// SPDX-License-Identifier: MIT
// sort_pairs_cmp: unstable sort of 20 M (uint64 key, uint64 value) pairs by a comparator on
// the key (the std signature: no radix path). The keys are random 64-bit, so distinct: every
// correct sort gives the same order. Each timed call sorts a fresh copy; the copy is untimed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "common.hpp"
#include "turn_buffer.hpp"

namespace weft_bench::sort_pairs_cmp {

inline constexpr std::size_t default_n = 20'000'000;
inline constexpr std::size_t quick_n = 1'000'000;

using pair_t = std::pair<std::uint64_t, std::uint64_t>;

inline std::vector<pair_t> make_input(std::size_t n) {
  std::mt19937_64 rng(11);
  std::vector<pair_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {rng(), i};
  return v;
}

inline constexpr auto by_first = [](const pair_t& a, const pair_t& b) { return a.first < b.first; };

// Position-weighted sum of the sorted pairs' values, each peer's result (time_sorts).
inline std::uint64_t checksum(std::span<const pair_t> v) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < v.size(); ++i) s += (v[i].first ^ v[i].second) * (i | 1);
  return s;
}

using run_fn = timed<std::uint64_t>(const std::vector<pair_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar;

inline constexpr peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
    {"stdpar", WEFT_BENCH_IF_STDPAR(&run_stdpar)},
};

}  // namespace weft_bench::sort_pairs_cmp
