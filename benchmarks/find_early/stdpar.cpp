// SPDX-License-Identifier: MIT
// find_early with std::find_if(std::execution::par), threads capped by tbb::global_control.
#include <oneapi/tbb/global_control.h>

#include <execution>

#include "find_early/config.hpp"

namespace weft_bench::find_early {

timed<std::size_t> run_stdpar(const std::vector<std::int32_t>& v, int threads, int calls) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(calls, [&] {
    const auto it = std::find_if(std::execution::par, v.begin(), v.end(), is_match);
    return static_cast<std::size_t>(it - v.begin());
  });
}

}  // namespace weft_bench::find_early
