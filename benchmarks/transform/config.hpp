// SPDX-License-Identifier: MIT
// transform: y = x * a + b from one large vector of doubles into another (memory-bound, the
// output written once and never read by the pass). Its input is for_each's.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "common.hpp"
#include "turn_buffer.hpp"

namespace weft_bench::transform {

inline constexpr std::size_t default_n = 50'000'000;
inline constexpr std::size_t quick_n = 5'000'000;

inline constexpr auto affine = [](double x) { return x * 0.5 + 3.0; };

// Every call writes the same output, so its sum does not depend on how many calls a run made;
// an element written wrongly or not at all (the output starts at -1) changes it.
inline double output_checksum(std::span<const double> out) {
  double s = 0;
  for (const double y : out) s += y;
  return s;
}

using run_fn = timed<double>(const std::vector<double>& in, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::transform
