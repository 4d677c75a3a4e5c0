// SPDX-License-Identifier: MIT
// fold_reduce: the sum of x*x over n int64 written with the adaptors a Rayon user reaches for
// (fold(...).reduce(...), map(...).reduce_with(...)) against the weft forms they stand for
// (reduce(identity, fold, combine), map(...).reduce(identity, op)). Size, input, peers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common.hpp"

namespace weft_bench::fold_reduce {

inline constexpr std::size_t default_n = 20'000'000;
inline constexpr std::size_t quick_n = 2'000'000;

inline std::vector<std::int64_t> make_input(std::size_t n) {
  std::vector<std::int64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int64_t>(i * 7919 % 1000);
  return v;
}

inline constexpr auto add_square = [](std::int64_t s, std::int64_t x) { return s + x * x; };
inline constexpr auto square = [](std::int64_t x) { return x * x; };
inline constexpr auto plus = [](std::int64_t a, std::int64_t b) { return a + b; };

using run_fn = timed<std::int64_t>(const std::vector<std::int64_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_weft_reduce, run_weft_reduce_with, run_weft_map_reduce;
inline constexpr std::array<peer<run_fn>, 5> peers{{{"seq", &run_seq},
                                                     {"weft", &run_weft},
                                                     {"weft-red", &run_weft_reduce},
                                                     {"weft-rw", &run_weft_reduce_with},
                                                     {"weft-map", &run_weft_map_reduce}}};

}  // namespace weft_bench::fold_reduce
