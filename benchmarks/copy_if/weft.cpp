// SPDX-License-Identifier: MIT
// copy_if on weft: weft::copy_if(weft::par, ...), inside thread_pool::install.
#include <weft/weft.hpp>

#include "copy_if/config.hpp"

namespace weft_bench::copy_if {

timed<std::uint64_t> run_weft(const std::vector<std::int64_t>& in, int threads, int reps) {
  turn_buffer<std::int64_t> out(in.size(), 1);
  std::size_t kept = 0;
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  auto t = pool.install([&] {
    return time_calls(reps, [&] {
      kept = static_cast<std::size_t>(
          weft::copy_if(weft::par, in.begin(), in.end(), out.begin(), keep) - out.begin());
      return std::uint64_t{0};
    });
  });
  t.result = checksum(out, kept);
  return t;
}

}  // namespace weft_bench::copy_if
