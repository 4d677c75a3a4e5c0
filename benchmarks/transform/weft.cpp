// SPDX-License-Identifier: MIT
// transform on weft: weft::transform(weft::par, ...), inside thread_pool::install.
#include <weft/weft.hpp>

#include "transform/config.hpp"

namespace weft_bench::transform {

timed<double> run_weft(const std::vector<double>& in, int threads, int reps) {
  turn_buffer<double> out(in.size(), -1.0);
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  auto t = pool.install([&] {
    return time_calls(reps, [&] {
      weft::transform(weft::par, in.begin(), in.end(), out.begin(), affine);
      return 0.0;
    });
  });
  t.result = output_checksum(out);
  return t;
}

}  // namespace weft_bench::transform
