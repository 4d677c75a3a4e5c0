// SPDX-License-Identifier: MIT
// noise_sum: each of n doubles plus a pseudo-random number in [0, 1), summed, with a
// std::mt19937_64 per piece of work: what a user who needs a costly object per thread
// (a generator, a scratch buffer) writes with each runtime. Size, input, the result check.
#pragma once

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "common.hpp"

namespace weft_bench::noise_sum {

inline constexpr std::size_t default_n = 20'000'000;
inline constexpr std::size_t quick_n = 2'000'000;

// Items of about 1e6: an item lost or counted twice moves the sum by far more than the
// noise's spread.
inline std::vector<double> make_input(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 1e6 + static_cast<double>(i % 1000);
  return v;
}

// A uniform double in [0, 1) from the top 53 bits of a draw.
inline double unit(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }

// Every generator gets its own seed (one stream per piece of work, as a user would want).
inline std::uint64_t next_seed() {
  static std::atomic<std::uint64_t> seeds{0x9e3779b97f4a7c15ULL};
  return seeds.fetch_add(0x9e3779b97f4a7c15ULL, std::memory_order_relaxed);
}

// Each peer draws other numbers, so the sums agree only up to the noise: two sums of n
// uniform draws differ by sqrt(n / 6) standard deviations' worth; allow ten of those (a
// lost item moves the sum by ~1e6, an unused generator by n / 2).
inline std::string differs_by_noise(double got, double want) {
  const double n = want / (1e6 + 500.0);
  if (std::fabs(got - want) <= 10 * std::sqrt(n / 6) + 1e-9 * std::fabs(want) + 1) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "computed %.17g, expected %.17g +- noise", got, want);
  return buf;
}

using run_fn = timed<double>(const std::vector<double>& v, int threads, int reps);
run_fn run_seq, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers = standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp);

}  // namespace weft_bench::noise_sum
