// SPDX-License-Identifier: MIT
// scan with std::inclusive_scan(std::execution::par).
#include <oneapi/tbb/global_control.h>

#include <execution>
#include <numeric>

#include "scan/config.hpp"

namespace weft_bench::scan {

timed<std::uint64_t> run_stdpar(const std::vector<std::int64_t>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  turn_buffer<std::int64_t> out(in.size(), 1);
  auto t = time_calls(reps, [&] {
    std::inclusive_scan(std::execution::par, in.begin(), in.end(), out.begin());
    return std::uint64_t{0};
  });
  t.result = checksum(out);
  return t;
}

}  // namespace weft_bench::scan
