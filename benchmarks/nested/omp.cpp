// SPDX-License-Identifier: MIT
// Nested parallelism on OpenMP: taskloop reductions inside taskloop reductions, in one
// parallel/single region.
#include <omp.h>

#include "nested/config.hpp"

namespace weft_bench::nested {
namespace {

long search(int n, const board& b) {
  if (b.row == n) return 1;
  std::array<unsigned, 32> cands;
  const std::size_t k = candidates(n, b, cands);
  long count = 0;
#pragma omp taskloop reduction(+ : count) firstprivate(n) shared(b, cands)
  for (std::size_t i = 0; i < k; ++i) count += search(n, b.place(cands[i]));
  return count;
}

std::uint64_t grid_sum(const std::vector<std::vector<std::uint32_t>>& g) {
  std::uint64_t total = 0;
#pragma omp taskloop reduction(+ : total) shared(g)
  for (std::size_t i = 0; i < g.size(); ++i) {
    const auto& row = g[i];
    std::uint64_t s = 0;
#pragma omp taskloop reduction(+ : s) shared(row)
    for (std::size_t j = 0; j < row.size(); ++j) s += cell_value(row[j]);
    total += s;
  }
  return total;
}

}  // namespace

std::vector<double> run_queens_omp(int n, int threads, int reps) {
  return time_reps(reps, [&] {
    long r = 0;
#pragma omp parallel num_threads(threads) shared(r)
#pragma omp single
    r = search(n, board{0, 0, 0, 0});
    keep(r);
    nqueens::check("omp", n, r);
  });
}

std::vector<double> run_grid_omp(std::size_t side, int threads, int reps) {
  const auto g = make_grid(side);
  const std::uint64_t want = grid_sum_seq(g);
  return time_reps(reps, [&] {
    std::uint64_t r = 0;
#pragma omp parallel num_threads(threads) shared(r, g)
#pragma omp single
    r = grid_sum(g);
    keep(r);
    check_grid("omp", r, want);
  });
}

}  // namespace weft_bench::nested
