// SPDX-License-Identifier: MIT
// Nested parallelism on oneTBB: parallel_reduce whose body calls parallel_reduce, Rayon's
// nested par_iter shape written with oneTBB's reduction.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <functional>

#include "nested/config.hpp"

namespace weft_bench::nested {
namespace {

long search(int n, const board& b) {
  if (b.row == n) return 1;
  std::array<unsigned, 32> cands;
  const std::size_t k = candidates(n, b, cands);
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, k), 0L,
      [&](const tbb::blocked_range<std::size_t>& r, long acc) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) acc += search(n, b.place(cands[i]));
        return acc;
      },
      std::plus<>());
}

std::uint64_t grid_sum(const std::vector<std::vector<std::uint32_t>>& g) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, g.size()), std::uint64_t{0},
      [&](const tbb::blocked_range<std::size_t>& rows, std::uint64_t acc) {
        for (std::size_t i = rows.begin(); i != rows.end(); ++i) {
          const auto& row = g[i];
          acc += tbb::parallel_reduce(
              tbb::blocked_range<std::size_t>(0, row.size()), std::uint64_t{0},
              [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t s) {
                for (std::size_t j = r.begin(); j != r.end(); ++j) s += cell_value(row[j]);
                return s;
              },
              std::plus<>());
        }
        return acc;
      },
      std::plus<>());
}

}  // namespace

std::vector<double> run_queens_tbb(int n, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_reps(reps, [&] {
    const long r = search(n, board{0, 0, 0, 0});
    keep(r);
    nqueens::check("tbb", n, r);
  });
}

std::vector<double> run_grid_tbb(std::size_t side, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  const auto g = make_grid(side);
  const std::uint64_t want = grid_sum_seq(g);
  return time_reps(reps, [&] {
    const std::uint64_t r = grid_sum(g);
    keep(r);
    check_grid("tbb", r, want);
  });
}

}  // namespace weft_bench::nested
