// SPDX-License-Identifier: MIT
// transform_reduce: the inner product of two large vectors of doubles (memory-bound).
#pragma once

#include <cstddef>
#include <vector>

#include "common.hpp"

namespace weft_bench::transform_reduce {

inline constexpr std::size_t default_n = 50'000'000;
inline constexpr std::size_t quick_n = 5'000'000;

struct input {
  std::vector<double> a, b;
};

// Small values with a short period: every association of the sum agrees to 1e-9.
inline input make_input(std::size_t n) {
  input in{std::vector<double>(n), std::vector<double>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    in.a[i] = static_cast<double>(i % 1000) / 1000.0;
    in.b[i] = static_cast<double>(i % 7) / 7.0;
  }
  return in;
}

using run_fn = timed<double>(const input& in, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::transform_reduce
