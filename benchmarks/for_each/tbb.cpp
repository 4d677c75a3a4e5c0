// SPDX-License-Identifier: MIT
// for_each on oneTBB: parallel_for over a blocked_range.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>

#include "for_each/config.hpp"

namespace weft_bench::for_each {

timed<double> run_tbb(const std::vector<double>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  turn_buffer<double> v(in.begin(), in.end());
  auto out = time_calls(reps, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, v.size()),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t i = r.begin(); i < r.end(); ++i) update(v[i]);
                      });
    return 0.0;
  });
  out.result = input_checksum(v, out.calls);
  return out;
}

}  // namespace weft_bench::for_each
