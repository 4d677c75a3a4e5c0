// SPDX-License-Identifier: MIT
// count_if with std::count_if(std::execution::par).
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <execution>

#include "count_if/config.hpp"

namespace weft_bench::count_if {

timed<std::int64_t> run_stdpar(const std::vector<std::int32_t>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return static_cast<std::int64_t>(std::count_if(std::execution::par, v.begin(), v.end(), pred));
  });
}

}  // namespace weft_bench::count_if
