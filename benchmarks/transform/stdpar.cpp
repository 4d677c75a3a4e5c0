// SPDX-License-Identifier: MIT
// transform with std::transform(std::execution::par).
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <execution>

#include "transform/config.hpp"

namespace weft_bench::transform {

timed<double> run_stdpar(const std::vector<double>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  turn_buffer<double> out(in.size(), -1.0);
  auto t = time_calls(reps, [&] {
    std::transform(std::execution::par, in.begin(), in.end(), out.begin(), affine);
    return 0.0;
  });
  t.result = output_checksum(out);
  return t;
}

}  // namespace weft_bench::transform
