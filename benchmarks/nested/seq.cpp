// SPDX-License-Identifier: MIT
// Nested parallelism, sequential baselines: the plain recursive search and the double loop.
#include "nested/config.hpp"

namespace weft_bench::nested {
namespace {

long search(int n, const board& b) {
  if (b.row == n) return 1;
  std::array<unsigned, 32> cands;
  const std::size_t k = candidates(n, b, cands);
  long count = 0;
  for (std::size_t i = 0; i < k; ++i) count += search(n, b.place(cands[i]));
  return count;
}

}  // namespace

std::vector<double> run_queens_seq(int n, int /*threads*/, int reps) {
  volatile int vn = n;  // read back so that the search cannot be folded into a constant
  return time_reps(reps, [&] {
    const long r = search(vn, board{0, 0, 0, 0});
    keep(r);
    nqueens::check("seq", n, r);
  });
}

std::vector<double> run_grid_seq(std::size_t side, int /*threads*/, int reps) {
  const auto g = make_grid(side);
  const std::uint64_t want = grid_sum_seq(g);
  return time_reps(reps, [&] {
    const std::uint64_t r = grid_sum_seq(g);
    keep(r);
    check_grid("seq", r, want);
  });
}

}  // namespace weft_bench::nested
