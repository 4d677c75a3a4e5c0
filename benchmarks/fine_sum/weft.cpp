// SPDX-License-Identifier: MIT
// fine_sum on weft: with_max_len cuts until every piece is at most piece_len items; each
// leaf folds its piece with the pipeline's 8-lane floating-point sum.
#include <weft/weft.hpp>

#include "fine_sum/config.hpp"

namespace weft_bench::fine_sum {

timed<double> run_weft(const std::vector<double>& v, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  const std::size_t piece = piece_len(v.size(), threads);
  return pool.install([&] {
    return time_calls(reps, [&] {
      return weft::iter(v).with_max_len(piece).map(sum_sq::square).sum();
    });
  });
}

}  // namespace weft_bench::fine_sum
