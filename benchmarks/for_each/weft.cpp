// SPDX-License-Identifier: MIT
// for_each on weft: weft::for_each(weft::par, ...), inside thread_pool::install.
#include <weft/weft.hpp>

#include "for_each/config.hpp"

namespace weft_bench::for_each {

timed<double> run_weft(const std::vector<double>& in, int threads, int reps) {
  turn_buffer<double> v(in.begin(), in.end());
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  auto out = pool.install([&] {
    return time_calls(reps, [&] {
      weft::for_each(weft::par, v.begin(), v.end(), update);
      return 0.0;
    });
  });
  out.result = input_checksum(v, out.calls);
  return out;
}

}  // namespace weft_bench::for_each
