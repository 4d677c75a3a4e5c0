// SPDX-License-Identifier: MIT
// transform on oneTBB: parallel_for over a blocked_range.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>

#include "transform/config.hpp"

namespace weft_bench::transform {

timed<double> run_tbb(const std::vector<double>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  turn_buffer<double> out(in.size(), -1.0);
  auto t = time_calls(reps, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.size()),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t i = r.begin(); i < r.end(); ++i) out[i] = affine(in[i]);
                      });
    return 0.0;
  });
  t.result = output_checksum(out);
  return t;
}

}  // namespace weft_bench::transform
