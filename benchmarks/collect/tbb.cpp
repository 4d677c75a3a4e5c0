// SPDX-License-Identifier: MIT
// collect on oneTBB: a sized std::vector filled by parallel_for.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>

#include "collect/config.hpp"

namespace weft_bench::collect {

timed<std::vector<double>> run_tbb(const std::vector<double>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    std::vector<double> out(v.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, v.size()),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t i = r.begin(); i < r.end(); ++i) out[i] = transform(v[i]);
                      });
    return out;
  });
}

}  // namespace weft_bench::collect
