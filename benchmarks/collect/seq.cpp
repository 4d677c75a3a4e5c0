// SPDX-License-Identifier: MIT
// collect baseline: a sized std::vector and std::transform; and the allocation alone.
#include <algorithm>

#include "collect/config.hpp"

namespace weft_bench::collect {

timed<std::vector<double>> run_seq(const std::vector<double>& v, int /*threads*/, int reps) {
  return time_calls(reps, [&] {
    std::vector<double> out(v.size());
    std::transform(v.begin(), v.end(), out.begin(), transform);
    return out;
  });
}

std::vector<double> run_alloc(std::size_t n, int reps) {
  return time_calls(reps, [n] { return std::vector<double>(n); }).ns;
}

}  // namespace weft_bench::collect
