// SPDX-License-Identifier: MIT
// lines on weft: str(t).lines().map(size).sum(); weft-hand: the split by hand, a pipeline
// over 64 KiB blocks each summing the lines that start in it.
#include <weft/weft.hpp>

#include "lines/config.hpp"
#include "weft_pool.hpp"

namespace weft_bench::lines {

timed<std::size_t> run_weft(const std::string& t, int threads, int reps) {
  return in_weft_pool(threads, reps, [&] {
    return weft::str(t).lines().map([](std::string_view l) { return l.size(); }).sum();
  });
}

timed<std::size_t> run_weft_hand(const std::string& t, int threads, int reps) {
  constexpr std::size_t block = std::size_t{1} << 16;
  return in_weft_pool(threads, reps, [&] {
    return weft::range(std::size_t{0}, (t.size() + block - 1) / block)
        .map([&](std::size_t b) {
          return line_lengths_from(t, b * block, std::min(t.size(), (b + 1) * block));
        })
        .sum();
  });
}

}  // namespace weft_bench::lines
