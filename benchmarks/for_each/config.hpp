// SPDX-License-Identifier: MIT
// for_each: an affine update in place over a large vector of doubles (memory-bound).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "common.hpp"
#include "turn_buffer.hpp"

namespace weft_bench::for_each {

inline constexpr std::size_t default_n = 50'000'000;
inline constexpr std::size_t quick_n = 5'000'000;

inline std::vector<double> make_input(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i % 1000);
  return v;
}

// x -> 999 - x: an affine update (x * a + b, a = -1) whose k-fold application is x0 or
// 999 - x0, exactly, for any k.
inline constexpr auto update = [](double& x) { x = x * -1.0 + 999.0; };

// Every peer updates its own copy of the input in every call (warm-up included); the result
// is the input's checksum recovered from the copy after the run's `calls` updates: it
// matches only if every element was updated exactly that often (an element updated once
// too many or too few reads 999 - x0), and it does not depend on how many calls a run made
// (rounds make one or two each, and a turn of short calls repeats them up to 20 ms: hundreds).
inline double input_checksum(std::span<const double> v, int calls) {
  double s = 0;
  for (const double x : v) s += calls % 2 == 0 ? x : 999.0 - x;
  return s;
}

using run_fn = timed<double>(const std::vector<double>& v, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::for_each
