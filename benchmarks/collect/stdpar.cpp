// SPDX-License-Identifier: MIT
// collect with a sized std::vector and std::transform(std::execution::par).
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <execution>

#include "collect/config.hpp"

namespace weft_bench::collect {

timed<std::vector<double>> run_stdpar(const std::vector<double>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    std::vector<double> out(v.size());
    std::transform(std::execution::par, v.begin(), v.end(), out.begin(), transform);
    return out;
  });
}

}  // namespace weft_bench::collect
