// SPDX-License-Identifier: MIT
// scan on oneTBB: the functional form of parallel_scan over a blocked_range.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_scan.h>

#include "scan/config.hpp"

namespace weft_bench::scan {

timed<std::uint64_t> run_tbb(const std::vector<std::int64_t>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  turn_buffer<std::int64_t> out(in.size(), 1);
  const std::int64_t* x = in.data();
  std::int64_t* y = out.data();
  auto t = time_calls(reps, [&] {
    tbb::parallel_scan(
        tbb::blocked_range<std::size_t>(0, in.size()), std::int64_t{0},
        [&](const tbb::blocked_range<std::size_t>& r, std::int64_t sum, bool is_final) {
          for (std::size_t i = r.begin(); i < r.end(); ++i) {
            sum += x[i];
            if (is_final) y[i] = sum;
          }
          return sum;
        },
        [](std::int64_t a, std::int64_t b) { return a + b; });
    return std::uint64_t{0};
  });
  t.result = checksum(out);
  return t;
}

}  // namespace weft_bench::scan
