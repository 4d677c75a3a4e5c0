// SPDX-License-Identifier: MIT
// map_filter_sum with std::transform_reduce(std::execution::par) over counting iterators
// (std::views::iota's iterators are only input iterators to the parallel algorithms).
#include <oneapi/tbb/global_control.h>

#include <execution>
#include <functional>
#include <numeric>

#include "counting_iterator.hpp"
#include "map_filter_sum/config.hpp"

namespace weft_bench::map_filter_sum {

timed<std::int64_t> run_stdpar(std::int64_t n, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return std::transform_reduce(
        std::execution::par, counting_iterator<std::int64_t>(0),
        counting_iterator<std::int64_t>(n), std::int64_t{0}, std::plus<>{},
        [](std::int64_t x) { return keep_item(x) ? value_of(x) : 0; });
  });
}

}  // namespace weft_bench::map_filter_sum
