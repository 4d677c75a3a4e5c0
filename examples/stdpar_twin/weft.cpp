// SPDX-License-Identifier: MIT
// stdpar_twin, weft version: the same computation as stdpar.cpp, written as weft pipelines.
#include <weft/weft.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "collatz.hpp"

int main() {
  std::vector<std::uint32_t> steps(twin::count);
  weft::iter(steps).enumerate().for_each([](auto item) {
    auto& [i, s] = item;
    s = twin::collatz_steps(i + 1);
  });

  const auto total = weft::iter(steps).sum<std::uint64_t>();
  const twin::chain longest =
      weft::iter(steps)
          .enumerate()
          .map([](auto item) { return twin::chain{item.second, item.first + 1}; })
          .reduce(twin::chain{0, 0}, twin::longer);
  const auto even = weft::iter(steps).filter([](std::uint32_t s) { return s % 2 == 0; }).count();

  twin::report(total, longest, even);
}
