// SPDX-License-Identifier: MIT
// unbalanced with std::transform_reduce(std::execution::par) over counting iterators
// (std::views::iota's iterators are only input iterators to the parallel algorithms).
#include <oneapi/tbb/global_control.h>

#include <execution>
#include <functional>
#include <numeric>

#include "counting_iterator.hpp"
#include "unbalanced/config.hpp"

namespace weft_bench::unbalanced {

timed<std::uint64_t> run_stdpar(std::int64_t n, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    return std::transform_reduce(std::execution::par, counting_iterator<std::int64_t>(0),
                                 counting_iterator<std::int64_t>(n), std::uint64_t{0},
                                 std::plus<>{}, cost);
  });
}

}  // namespace weft_bench::unbalanced
