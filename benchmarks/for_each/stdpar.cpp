// SPDX-License-Identifier: MIT
// for_each with std::for_each(std::execution::par).
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <execution>

#include "for_each/config.hpp"

namespace weft_bench::for_each {

timed<double> run_stdpar(const std::vector<double>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  turn_buffer<double> v(in.begin(), in.end());
  auto out = time_calls(reps, [&] {
    std::for_each(std::execution::par, v.begin(), v.end(), update);
    return 0.0;
  });
  out.result = input_checksum(v, out.calls);
  return out;
}

}  // namespace weft_bench::for_each
