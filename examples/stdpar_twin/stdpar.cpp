// SPDX-License-Identifier: MIT
// stdpar_twin, std::execution::par version: fill with std::for_each, then three
// std::transform_reduce passes. Its twin weft.cpp prints the same lines.
#include <algorithm>
#include <cstdint>
#include <execution>
#include <functional>
#include <numeric>
#include <vector>

#include "collatz.hpp"

int main() {
  std::vector<std::uint32_t> steps(twin::count);
  std::for_each(std::execution::par, steps.begin(), steps.end(), [&](std::uint32_t& s) {
    s = twin::collatz_steps(static_cast<std::uint64_t>(&s - steps.data()) + 1);
  });

  const std::uint64_t total = std::transform_reduce(
      std::execution::par, steps.begin(), steps.end(), std::uint64_t{0}, std::plus<>{},
      [](std::uint32_t s) { return std::uint64_t{s}; });
  const twin::chain longest = std::transform_reduce(
      std::execution::par, steps.begin(), steps.end(), twin::chain{0, 0}, twin::longer,
      [&](const std::uint32_t& s) {
        return twin::chain{s, static_cast<std::uint64_t>(&s - steps.data()) + 1};
      });
  const std::uint64_t even = std::transform_reduce(
      std::execution::par, steps.begin(), steps.end(), std::uint64_t{0}, std::plus<>{},
      [](std::uint32_t s) { return std::uint64_t{s % 2 == 0}; });

  twin::report(total, longest, even);
}
