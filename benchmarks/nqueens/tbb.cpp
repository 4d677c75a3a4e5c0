// SPDX-License-Identifier: MIT
// n-queens on oneTBB: tbb::task_group::run per placement, one group for the whole search.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include "nqueens/config.hpp"

namespace weft_bench::nqueens {
namespace {

void place(tbb::task_group& g, solution_counts& solutions, int n, const board& b) {
  if (b.row == n) {
    solutions.add_one(static_cast<std::size_t>(tbb::this_task_arena::current_thread_index()));
    return;
  }
  for (unsigned avail = b.free_columns(n); avail != 0; avail &= avail - 1) {
    const board next = b.place(avail & (0u - avail));
    g.run([&g, &solutions, n, next] { place(g, solutions, n, next); });
  }
}

}  // namespace

std::vector<double> run_tbb(int n, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_reps(reps, [&] {
    solution_counts found;
    tbb::task_group g;
    place(g, found, n, board{0, 0, 0, 0});
    g.wait();
    const long r = found.total();
    keep(r);
    check("tbb", n, r);
  });
}

}  // namespace weft_bench::nqueens
