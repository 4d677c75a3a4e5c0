// SPDX-License-Identifier: MIT
// find_if (early match): the first nonzero of a large vector of int32 zeros, the only match
// 1% of the way in: a parallel search must stop instead of scanning the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common.hpp"

namespace weft_bench::find_if {

inline constexpr std::size_t default_n = 50'000'000;
inline constexpr std::size_t quick_n = 5'000'000;

inline std::size_t match_position(std::size_t n) { return n / 100; }

inline std::vector<std::int32_t> make_input(std::size_t n) {
  std::vector<std::int32_t> v(n, 0);
  if (n > 0) v[match_position(n)] = 1;
  return v;
}

inline constexpr auto pred = [](std::int32_t x) { return x != 0; };

using run_fn = timed<std::size_t>(const std::vector<std::int32_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::find_if
