// SPDX-License-Identifier: MIT
// fold_chunks baseline: one loop over the runs, one over each run's items.
#include <algorithm>

#include "fold_chunks/config.hpp"

namespace weft_bench::fold_chunks {

timed<std::int64_t> run_seq(const std::vector<std::int64_t>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] {
    std::int64_t total = 0;
    for (std::size_t lo = 0; lo < v.size(); lo += run_length) {
      std::int64_t h = 0;
      for (std::size_t i = lo; i < std::min(v.size(), lo + run_length); ++i) h = hash_step(h, v[i]);
      total += h;
    }
    return total;
  });
}

}  // namespace weft_bench::fold_chunks
