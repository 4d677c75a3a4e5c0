// SPDX-License-Identifier: MIT
// find_if with std::find_if(std::execution::par).
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <execution>

#include "find_if/config.hpp"

namespace weft_bench::find_if {

timed<std::size_t> run_stdpar(const std::vector<std::int32_t>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return static_cast<std::size_t>(std::find_if(std::execution::par, v.begin(), v.end(), pred) -
                                    v.begin());
  });
}

}  // namespace weft_bench::find_if
