// SPDX-License-Identifier: MIT
// copy_if: keep the even elements of a large vector of pseudo-random int64 (about half, in no
// predictable pattern) into a second vector, in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common.hpp"
#include "turn_buffer.hpp"

namespace weft_bench::copy_if {

inline constexpr std::size_t default_n = 50'000'000;
inline constexpr std::size_t quick_n = 5'000'000;

inline std::vector<std::int64_t> make_input(std::size_t n) {
  std::vector<std::int64_t> v(n);
  std::uint64_t x = 0x9E3779B97F4A7C15u;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v[i] = static_cast<std::int64_t>(x % 1'000'000);
  }
  return v;
}

inline constexpr auto keep = [](std::int64_t x) { return x % 2 == 0; };

// Every peer writes into its own output, allocated and touched before the timing; the result
// is a position-weighted sum of the kept prefix and its length.
inline std::uint64_t checksum(std::span<const std::int64_t> out, std::size_t kept) {
  std::uint64_t s = kept;
  for (std::size_t i = 0; i < kept; ++i) s += static_cast<std::uint64_t>(out[i]) * (i | 1);
  return s;
}

using run_fn = timed<std::uint64_t>(const std::vector<std::int64_t>& in, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::copy_if
