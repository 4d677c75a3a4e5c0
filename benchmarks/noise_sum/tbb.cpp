// SPDX-License-Identifier: MIT
// noise_sum on oneTBB: parallel_reduce, a generator per thread in an
// enumerable_thread_specific made for the call.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <functional>

#include "noise_sum/config.hpp"

namespace weft_bench::noise_sum {

timed<double> run_tbb(const std::vector<double>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    tbb::enumerable_thread_specific<std::mt19937_64> generators(
        [] { return std::mt19937_64(next_seed()); });
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, v.size()), 0.0,
        [&](const tbb::blocked_range<std::size_t>& r, double s) {
          std::mt19937_64& g = generators.local();
          for (std::size_t i = r.begin(); i < r.end(); ++i) s += v[i] + unit(g);
          return s;
        },
        std::plus<>{});
  });
}

}  // namespace weft_bench::noise_sum
