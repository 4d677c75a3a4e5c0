// SPDX-License-Identifier: MIT
// copy_if on oneTBB: parallel_scan over the kept counts; the final scan writes.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_scan.h>

#include "copy_if/config.hpp"

namespace weft_bench::copy_if {

timed<std::uint64_t> run_tbb(const std::vector<std::int64_t>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  turn_buffer<std::int64_t> out(in.size(), 1);
  const std::int64_t* x = in.data();
  std::int64_t* y = out.data();
  std::size_t kept = 0;
  auto t = time_calls(reps, [&] {
    kept = tbb::parallel_scan(
        tbb::blocked_range<std::size_t>(0, in.size()), std::size_t{0},
        [&](const tbb::blocked_range<std::size_t>& r, std::size_t k, bool is_final) {
          for (std::size_t i = r.begin(); i < r.end(); ++i) {
            if (keep(x[i])) {
              if (is_final) y[k] = x[i];
              ++k;
            }
          }
          return k;
        },
        [](std::size_t a, std::size_t b) { return a + b; });
    return std::uint64_t{0};
  });
  t.result = checksum(out, kept);
  return t;
}

}  // namespace weft_bench::copy_if
