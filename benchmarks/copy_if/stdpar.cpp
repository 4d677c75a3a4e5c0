// SPDX-License-Identifier: MIT
// copy_if with std::copy_if(std::execution::par).
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <execution>

#include "copy_if/config.hpp"

namespace weft_bench::copy_if {

timed<std::uint64_t> run_stdpar(const std::vector<std::int64_t>& in, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  turn_buffer<std::int64_t> out(in.size(), 1);
  std::size_t kept = 0;
  auto t = time_calls(reps, [&] {
    kept = static_cast<std::size_t>(
        std::copy_if(std::execution::par, in.begin(), in.end(), out.begin(), keep) -
        out.begin());
    return std::uint64_t{0};
  });
  t.result = checksum(out, kept);
  return t;
}

}  // namespace weft_bench::copy_if
