// SPDX-License-Identifier: MIT
// scan on weft: weft::inclusive_scan(weft::par, ...), inside thread_pool::install.
#include <weft/weft.hpp>

#include "scan/config.hpp"

namespace weft_bench::scan {

timed<std::uint64_t> run_weft(const std::vector<std::int64_t>& in, int threads, int reps) {
  turn_buffer<std::int64_t> out(in.size(), 1);
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  auto t = pool.install([&] {
    return time_calls(reps, [&] {
      weft::inclusive_scan(weft::par, in.begin(), in.end(), out.begin());
      return std::uint64_t{0};
    });
  });
  t.result = checksum(out);
  return t;
}

}  // namespace weft_bench::scan
