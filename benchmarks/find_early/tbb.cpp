// SPDX-License-Identifier: MIT
// find_early on oneTBB: parallel_for whose chunks skip, or stop scanning, once a match left
// of them is known (a CAS-min on a shared index). Cancelling the group at the first match
// found would be wrong: it may not be the first one.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>

#include "find_early/config.hpp"

namespace weft_bench::find_early {

timed<std::size_t> run_tbb(const std::vector<std::int32_t>& v, int threads, int calls) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(calls, [&] {
    std::atomic<std::size_t> best{v.size()};
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, v.size()),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        scan_checked(v, r.begin(), r.end(), best);
                      });
    return best.load();
  });
}

}  // namespace weft_bench::find_early
