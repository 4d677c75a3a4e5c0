// SPDX-License-Identifier: MIT
// try_each: a check of every item of n int64 that fails at the last one only: what
// try_for_each costs against the hand-written weft searches it replaces. Size, input, peers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common.hpp"
#include "try_sum/config.hpp"

namespace weft_bench::try_each {

inline constexpr std::size_t default_n = try_sum::default_n;
inline constexpr std::size_t quick_n = try_sum::quick_n;

// try_sum's values, in [0, 1000), but the last, which fails the check.
inline std::vector<std::int64_t> make_input(std::size_t n) {
  std::vector<std::int64_t> v = try_sum::make_input(n);
  if (n > 0) v[n - 1] = 1000;
  return v;
}

inline constexpr auto valid = [](std::int64_t x) { return x < 1000; };

// Each peer returns the position of the first item that fails the check, or n.
using run_fn = timed<std::size_t>(const std::vector<std::int64_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_weft_find, run_weft_position;
inline constexpr std::array<peer<run_fn>, 4> peers{{{"seq", &run_seq},
                                                     {"weft", &run_weft},
                                                     {"weft-find", &run_weft_find},
                                                     {"weft-pos", &run_weft_position}}};

}  // namespace weft_bench::try_each
