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
run_fn run_seq;
run_fn run_weft;
run_fn run_tbb;
run_fn run_stdpar;
run_fn run_omp;

inline const peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
    {"stdpar", WEFT_BENCH_IF_STDPAR(&run_stdpar)},
    {"omp", WEFT_BENCH_IF_OMP(&run_omp)},
};

}  // namespace weft_bench::transform_reduce
