// SPDX-License-Identifier: MIT
// fold_chunks: each run of 16 int64 folded to one value (a polynomial hash), the folds
// summed: what the composed adaptor costs against the chunks(16).map(fold) a user would
// write by hand. Size, input, peers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common.hpp"

namespace weft_bench::fold_chunks {

inline constexpr std::size_t default_n = 20'000'000;
inline constexpr std::size_t quick_n = 2'000'000;
inline constexpr std::size_t run_length = 16;

inline std::vector<std::int64_t> make_input(std::size_t n) {
  std::vector<std::int64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int64_t>(i * 7919 % 1000);
  return v;
}

// The fold of a run: h * 31 + x, in order (not associative, so the run's order matters).
inline constexpr auto hash_step = [](std::int64_t h, std::int64_t x) { return h * 31 + x; };

using run_fn = timed<std::int64_t>(const std::vector<std::int64_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_weft_hand;
inline constexpr std::array<peer<run_fn>, 3> peers{
    {{"seq", &run_seq}, {"weft", &run_weft}, {"weft-hand", &run_weft_hand}}};

}  // namespace weft_bench::fold_chunks
