// SPDX-License-Identifier: MIT
// find_if on oneTBB (which has no parallel find): parallel_for over a blocked_range; each
// range skips itself when a match left of it is known, and records its match with a CAS-min.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <atomic>

#include "find_if/config.hpp"

namespace weft_bench::find_if {

timed<std::size_t> run_tbb(const std::vector<std::int32_t>& v, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    std::atomic<std::size_t> best{v.size()};
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, v.size()),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        if (r.begin() >= best.load(std::memory_order_relaxed)) return;
                        const auto it = std::find_if(v.begin() + static_cast<std::ptrdiff_t>(r.begin()),
                                                     v.begin() + static_cast<std::ptrdiff_t>(r.end()), pred);
                        std::size_t at = static_cast<std::size_t>(it - v.begin());
                        if (at == r.end()) return;
                        std::size_t cur = best.load(std::memory_order_relaxed);
                        while (at < cur && !best.compare_exchange_weak(cur, at)) {
                        }
                      });
    return best.load();
  });
}

}  // namespace weft_bench::find_if
