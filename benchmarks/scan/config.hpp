// SPDX-License-Identifier: MIT
// scan: inclusive prefix sum of a large vector of int64 into a second vector (memory-bound:
// one read and one write per element).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common.hpp"
#include "turn_buffer.hpp"

namespace weft_bench::scan {

inline constexpr std::size_t default_n = 50'000'000;
inline constexpr std::size_t quick_n = 5'000'000;

inline std::vector<std::int64_t> make_input(std::size_t n) {
  std::vector<std::int64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int64_t>(i * 7919 % 1000) - 400;
  return v;
}

// Every peer scans into its own output, allocated and touched before the timing; the result
// is a position-weighted sum of that output, so a misplaced element shows.
inline std::uint64_t checksum(std::span<const std::int64_t> out) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < out.size(); ++i) s += static_cast<std::uint64_t>(out[i]) * (i | 1);
  return s;
}

using run_fn = timed<std::uint64_t>(const std::vector<std::int64_t>& in, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::scan
