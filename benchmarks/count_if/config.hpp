// SPDX-License-Identifier: MIT
// count_if: how many of a large vector of int32 are multiples of 3 (memory-bound).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common.hpp"

namespace weft_bench::count_if {

inline constexpr std::size_t default_n = 50'000'000;
inline constexpr std::size_t quick_n = 5'000'000;

inline std::vector<std::int32_t> make_input(std::size_t n) {
  std::vector<std::int32_t> v(n);
  std::uint32_t x = 1;
  for (auto& e : v) {
    x = x * 1664525u + 1013904223u;
    e = static_cast<std::int32_t>(x >> 8);
  }
  return v;
}

inline constexpr auto pred = [](std::int32_t x) { return x % 3 == 0; };

using run_fn = timed<std::int64_t>(const std::vector<std::int32_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::count_if
