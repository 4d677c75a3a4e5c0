// SPDX-License-Identifier: MIT
// sort_u64: unstable sort of 20 M uint64 keys, four inputs: random, sorted, reversed and
// few-unique (four distinct keys). Each timed call sorts a fresh copy; the copy is untimed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "common.hpp"
#include "turn_buffer.hpp"

namespace weft_bench::sort_u64 {

inline constexpr std::size_t default_n = 20'000'000;
inline constexpr std::size_t quick_n = 1'000'000;

enum class input { random, sorted, reversed, few_unique };
inline constexpr input inputs[] = {input::random, input::sorted, input::reversed,
                                   input::few_unique};
inline const char* name(input i) {
  switch (i) {
    case input::random: return "random";
    case input::sorted: return "sorted";
    case input::reversed: return "reversed";
    case input::few_unique: return "few_unique";
  }
  return "?";
}

inline std::vector<std::uint64_t> make_input(std::size_t n, input kind) {
  std::mt19937_64 rng(42);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = kind == input::few_unique ? rng() % 4 : rng();
  if (kind == input::sorted) std::sort(v.begin(), v.end());
  if (kind == input::reversed) std::sort(v.begin(), v.end(), std::greater<>());
  return v;
}

// Position-weighted sum of the sorted output, each peer's result (time_sorts): equal only for
// equal orders.
inline std::uint64_t checksum(std::span<const std::uint64_t> v) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < v.size(); ++i) s += v[i] * (i | 1);
  return s;
}

using run_fn = timed<std::uint64_t>(const std::vector<std::uint64_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar;

inline constexpr peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
    {"stdpar", WEFT_BENCH_IF_STDPAR(&run_stdpar)},
};

}  // namespace weft_bench::sort_u64
