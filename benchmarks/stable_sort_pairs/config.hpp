// SPDX-License-Identifier: MIT
// stable_sort_pairs: stable sort of 20 M (key, value) pairs by a 20-bit key; the value is the
// input position, so the checksum sees any stability error. oneTBB has no stable sort, so it
// is not a peer here. weft-lambda: weft with the key projected by a lambda not declared
// noexcept (keyed_radix_sort.hpp's checked path) instead of the data member pointer. Each
// timed call sorts a fresh copy; the copy is untimed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "common.hpp"
#include "turn_buffer.hpp"

namespace weft_bench::stable_sort_pairs {

inline constexpr std::size_t default_n = 20'000'000;
inline constexpr std::size_t quick_n = 1'000'000;

using pair_t = std::pair<std::uint32_t, std::uint32_t>;

inline std::vector<pair_t> make_input(std::size_t n) {
  std::mt19937_64 rng(7);
  std::vector<pair_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = {static_cast<std::uint32_t>(rng() & 0xFFFFF), static_cast<std::uint32_t>(i)};
  return v;
}

inline constexpr auto by_key = [](const pair_t& a, const pair_t& b) { return a.first < b.first; };

// Position-weighted sum of the sorted pairs, each peer's result (time_sorts): equal only for
// equal orders.
inline std::uint64_t checksum(std::span<const pair_t> v) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += ((std::uint64_t{v[i].first} << 32) | v[i].second) * (i | 1);
  return s;
}

using run_fn = timed<std::uint64_t>(const std::vector<pair_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_weft_lambda, run_stdpar;

inline constexpr peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"weft-lambda", &run_weft_lambda},
    {"stdpar", WEFT_BENCH_IF_STDPAR(&run_stdpar)},
};

}  // namespace weft_bench::stable_sort_pairs
