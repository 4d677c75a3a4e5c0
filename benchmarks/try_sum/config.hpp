// SPDX-License-Identifier: MIT
// try_sum: a sum that fails on overflow, over n int64 that never overflow: what the fallible
// fold costs against the hand-written weft pipeline it replaces. Size, input, peers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "common.hpp"

namespace weft_bench::try_sum {

inline constexpr std::size_t default_n = 20'000'000;
inline constexpr std::size_t quick_n = 2'000'000;

inline std::vector<std::int64_t> make_input(std::size_t n) {
  std::vector<std::int64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int64_t>(i * 7919 % 1000);
  return v;
}

// a + b, or nothing on overflow. A lambda, not a function: passed to a pipeline, a function
// decays to a pointer, and every item pays an indirect call.
inline constexpr auto checked_add = [](std::int64_t a, std::int64_t b) {
  std::int64_t s;
  return __builtin_add_overflow(a, b, &s) ? std::optional<std::int64_t>{} : std::optional(s);
};

// Each peer returns the sum, or -1 when it overflowed.
using run_fn = timed<std::int64_t>(const std::vector<std::int64_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_weft_reduce, run_weft_map;
inline constexpr std::array<peer<run_fn>, 4> peers{{{"seq", &run_seq},
                                                     {"weft", &run_weft},
                                                     {"weft-red", &run_weft_reduce},
                                                     {"weft-map", &run_weft_map}}};

}  // namespace weft_bench::try_sum
