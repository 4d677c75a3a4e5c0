// SPDX-License-Identifier: MIT
// n-queens on OpenMP: a task per placement inside one parallel/single region; the region's
// end waits for every task.
#include <omp.h>

#include "nqueens/config.hpp"

namespace weft_bench::nqueens {
namespace {

void place(solution_counts& solutions, int n, const board& b) {
  if (b.row == n) {
    solutions.add_one(static_cast<std::size_t>(omp_get_thread_num()));
    return;
  }
  for (unsigned avail = b.free_columns(n); avail != 0; avail &= avail - 1) {
    const board next = b.place(avail & (0u - avail));
#pragma omp task firstprivate(next, n) shared(solutions)
    place(solutions, n, next);
  }
}

}  // namespace

std::vector<double> run_omp(int n, int threads, int reps) {
  return time_reps(reps, [&] {
    solution_counts found;
#pragma omp parallel num_threads(threads) shared(found)
#pragma omp single
    place(found, n, board{0, 0, 0, 0});
    const long r = found.total();
    keep(r);
    check("omp", n, r);
  });
}

}  // namespace weft_bench::nqueens
