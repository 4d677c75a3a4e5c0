// SPDX-License-Identifier: MIT
// Nested parallelism on weft: a pipeline whose items are pipelines, at every level.
#include <weft/weft.hpp>

#include "nested/config.hpp"

namespace weft_bench::nested {
namespace {

long search(int n, const board& b) {
  if (b.row == n) return 1;
  std::array<unsigned, 32> cands;
  const std::size_t k = candidates(n, b, cands);
  return weft::iter(std::span<const unsigned>(cands.data(), k))
      .map([n, &b](unsigned bit) { return search(n, b.place(bit)); })
      .sum();
}

std::uint64_t grid_sum(const std::vector<std::vector<std::uint32_t>>& g) {
  return weft::iter(g)
      .map([](const std::vector<std::uint32_t>& row) {
        return weft::iter(row).map([](std::uint32_t c) { return cell_value(c); }).sum();
      })
      .sum();
}

}  // namespace

std::vector<double> run_queens_weft(int n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return time_reps(reps, [&] {
    const long r = pool.install([n] { return search(n, board{0, 0, 0, 0}); });
    keep(r);
    nqueens::check("weft", n, r);
  });
}

std::vector<double> run_grid_weft(std::size_t side, int threads, int reps) {
  const auto g = make_grid(side);
  const std::uint64_t want = grid_sum_seq(g);
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return time_reps(reps, [&] {
    const std::uint64_t r = pool.install([&] { return grid_sum(g); });
    keep(r);
    check_grid("weft", r, want);
  });
}

}  // namespace weft_bench::nested
