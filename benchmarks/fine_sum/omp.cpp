// SPDX-License-Identifier: MIT
// fine_sum on OpenMP: a loop over the pieces with schedule(dynamic, 1), so that each piece is
// handed out on its own, each summed with 8 lanes.
#include <algorithm>

#include "fine_sum/config.hpp"

namespace weft_bench::fine_sum {

timed<double> run_omp(const std::vector<double>& v, int threads, int reps) {
  const std::size_t n = v.size();
  const std::size_t piece = piece_len(n, threads);
  const auto pieces = static_cast<long>((n + piece - 1) / piece);
  return time_calls(reps, [&] {
    double s = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : s)
    for (long k = 0; k < pieces; ++k) {
      const std::size_t lo = static_cast<std::size_t>(k) * piece;
      s += sum_sq::sum_sq_lanes(v.data() + lo, std::min(piece, n - lo));
    }
    return s;
  });
}

}  // namespace weft_bench::fine_sum
