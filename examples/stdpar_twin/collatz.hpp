// SPDX-License-Identifier: MIT
// The twins' shared part: the workload (Collatz chain lengths) and the report both print.
#pragma once

#include <cstdint>
#include <cstdio>
#include <utility>

namespace twin {

constexpr std::uint64_t count = 300'000;  // starting values 1..count

// Steps for n to reach 1 under n -> n/2 (even), 3n+1 (odd): very uneven per item.
inline std::uint32_t collatz_steps(std::uint64_t n) {
  std::uint32_t steps = 0;
  for (; n != 1; ++steps) n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
  return steps;
}

// The longer chain; of equals, the smaller start. Associative and commutative, as
// std::transform_reduce requires, so both twins find the same one.
struct chain {
  std::uint32_t steps;
  std::uint64_t start;
};
inline chain longer(chain a, chain b) {
  if (a.steps != b.steps) return a.steps > b.steps ? a : b;
  return a.start < b.start ? a : b;
}

inline void report(std::uint64_t total_steps, chain longest, std::uint64_t even_lengths) {
  std::printf("starts: 1..%llu\n", static_cast<unsigned long long>(count));
  std::printf("total steps: %llu\n", static_cast<unsigned long long>(total_steps));
  std::printf("longest: %u steps from %llu\n", longest.steps,
              static_cast<unsigned long long>(longest.start));
  std::printf("even lengths: %llu\n", static_cast<unsigned long long>(even_lengths));
}

}  // namespace twin
