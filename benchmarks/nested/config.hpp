// SPDX-License-Identifier: MIT
// Nested parallelism, in the shape Rayon's users write it: a parallel reduction whose items
// run parallel reductions. nested_nqueens: n-queens where every level of the search sums a
// pipeline over the free columns, each item the next level's pipeline (oneTBB: nested
// parallel_reduce; OpenMP: nested taskloop reductions). nested_grid: the sum of f over a
// square grid, a pipeline over the rows whose items are pipelines over one row.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "common.hpp"
#include "nqueens/config.hpp"

namespace weft_bench::nested {

using nqueens::board;

inline constexpr int default_n = 12;
inline constexpr int quick_n = 10;
inline constexpr std::size_t default_side = 1000;
inline constexpr std::size_t quick_side = 300;

// The free columns of `b` as single bits, in a caller's array (no allocation per node, in
// any peer): returns how many.
inline std::size_t candidates(int n, const board& b, std::array<unsigned, 32>& out) {
  std::size_t k = 0;
  for (unsigned avail = b.free_columns(n); avail != 0; avail &= avail - 1)
    out[k++] = avail & (0u - avail);
  return k;
}

// The grid: side x side cells, row r a vector of its own (a pipeline over the rows meets
// each row as a container). Per cell a few integer operations, so that the sum is
// compute-bound at any thread count and exact in any order.
inline std::vector<std::vector<std::uint32_t>> make_grid(std::size_t side) {
  std::vector<std::vector<std::uint32_t>> g(side, std::vector<std::uint32_t>(side));
  std::uint32_t x = 12345;
  for (auto& row : g)
    for (auto& c : row) c = x = x * 1664525u + 1013904223u;
  return g;
}

inline std::uint64_t cell_value(std::uint32_t c) noexcept {
  std::uint64_t h = c;
  h ^= h >> 15;
  h *= 0x2c1b3c6dULL;
  h ^= h >> 12;
  h *= 0x297a2d39ULL;
  return (h ^ (h >> 15)) & 0xffff;
}

inline std::uint64_t grid_sum_seq(const std::vector<std::vector<std::uint32_t>>& g) {
  std::uint64_t s = 0;
  for (const auto& row : g)
    for (const std::uint32_t c : row) s += cell_value(c);
  return s;
}

inline void check_grid(const char* peer_name, std::uint64_t got, std::uint64_t want) {
  if (got == want) return;
  std::fprintf(stderr, "weft_bench: %s summed the grid to %llu, expected %llu\n", peer_name,
               static_cast<unsigned long long>(got), static_cast<unsigned long long>(want));
  std::abort();
}

// Wall ns of `reps` runs on `threads` threads, after one untimed warm-up.
using queens_fn = std::vector<double>(int n, int threads, int reps);
queens_fn run_queens_seq;
queens_fn run_queens_weft;
queens_fn run_queens_tbb;
queens_fn run_queens_omp;

using grid_fn = std::vector<double>(std::size_t side, int threads, int reps);
grid_fn run_grid_seq;
grid_fn run_grid_weft;
grid_fn run_grid_tbb;
grid_fn run_grid_omp;

inline const peer<queens_fn> queens_peers[] = {
    {"seq", &run_queens_seq},
    {"weft", &run_queens_weft},
    {"tbb", WEFT_BENCH_IF_TBB(&run_queens_tbb)},
    {"omp", WEFT_BENCH_IF_OMP(&run_queens_omp)},
};

inline const peer<grid_fn> grid_peers[] = {
    {"seq", &run_grid_seq},
    {"weft", &run_grid_weft},
    {"tbb", WEFT_BENCH_IF_TBB(&run_grid_tbb)},
    {"omp", WEFT_BENCH_IF_OMP(&run_grid_omp)},
};

}  // namespace weft_bench::nested
