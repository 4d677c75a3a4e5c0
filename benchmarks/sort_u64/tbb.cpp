// SPDX-License-Identifier: MIT
// sort_u64 on oneTBB: tbb::parallel_sort.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_sort.h>

#include "sort_u64/config.hpp"

namespace weft_bench::sort_u64 {

timed<std::uint64_t> run_tbb(const std::vector<std::uint64_t>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_sorts(in, reps, checksum,
                    [](turn_buffer<std::uint64_t>& v) { tbb::parallel_sort(v.begin(), v.end()); });
}

}  // namespace weft_bench::sort_u64
