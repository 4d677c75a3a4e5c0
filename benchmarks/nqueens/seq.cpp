// SPDX-License-Identifier: MIT
// n-queens baseline: the plain recursive search.
#include "nqueens/config.hpp"

namespace weft_bench::nqueens {
namespace {

long search(int n, board b) {
  if (b.row == n) return 1;
  long count = 0;
  for (unsigned avail = b.free_columns(n); avail != 0; avail &= avail - 1)
    count += search(n, b.place(avail & (0u - avail)));
  return count;
}

}  // namespace

std::vector<double> run_seq(int n, int /*threads*/, int reps) {
  volatile int vn = n;  // read back so that the search cannot be folded into a constant
  return time_reps(reps, [&] {
    const long r = search(vn, board{0, 0, 0, 0});
    keep(r);
    check("seq", n, r);
  });
}

std::vector<double> run_seq_copies(int n, int threads, int reps) {
  volatile int vn = n;
  return time_copies(threads, reps, [&] {
    const long r = search(vn, board{0, 0, 0, 0});
    keep(r);
    check("seq", n, r);
  });
}

}  // namespace weft_bench::nqueens
