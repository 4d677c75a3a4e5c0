// SPDX-License-Identifier: MIT
// monte_carlo_pi: estimates pi from N random points in the unit square, one block of samples
// per pipeline item. Each block seeds its own counter-based generator, so the estimate is the
// same at every thread count and every split. Usage: monte_carlo_pi [samples]
#include <weft/weft.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace {

constexpr std::uint64_t samples_per_block = 4096;
constexpr std::uint64_t seed = 0x5eed;
constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15;

// SplitMix64's output function: the n-th number of a stream is splitmix64(stream + n * gamma),
// so it depends only on (stream, n): a counter-based generator.
std::uint64_t splitmix64(std::uint64_t x) {
  x += golden_gamma;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9;
  x = (x ^ (x >> 27)) * 0x94d049bb133111eb;
  return x ^ (x >> 31);
}

// Points inside the quarter circle among the block's first `count` samples. Coordinates are 31-bit
// integers, so the test x^2 + y^2 < r^2 is exact integer arithmetic (no rounding to differ).
std::uint64_t hits_in(std::uint64_t block, std::uint64_t count) {
  constexpr std::uint64_t radius = std::uint64_t{1} << 31;
  const std::uint64_t stream = splitmix64(seed ^ splitmix64(block));
  std::uint64_t hits = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t r = splitmix64(stream + i * golden_gamma);
    const std::uint64_t x = r & (radius - 1);
    const std::uint64_t y = (r >> 32) & (radius - 1);
    hits += (x * x + y * y < radius * radius) ? 1 : 0;
  }
  return hits;
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t samples = argc > 1 ? std::stoull(argv[1]) : 100'000'000;
  const std::uint64_t blocks = (samples + samples_per_block - 1) / samples_per_block;

  const std::uint64_t hits = weft::range(std::uint64_t{0}, blocks)
                                 .map([samples](std::uint64_t b) {
                                   const std::uint64_t first = b * samples_per_block;
                                   const std::uint64_t last =
                                       std::min(samples, first + samples_per_block);
                                   return hits_in(b, last - first);
                                 })
                                 .sum();

  std::printf("hits: %llu of %llu\n", static_cast<unsigned long long>(hits),
              static_cast<unsigned long long>(samples));
  if (samples > 0)
    std::printf("pi ~ %.6f\n", 4.0 * static_cast<double>(hits) / static_cast<double>(samples));
}
