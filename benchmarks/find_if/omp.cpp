// SPDX-License-Identifier: MIT
// find_if on OpenMP: dynamically scheduled chunks that skip themselves once a match left of
// them is known (a CAS-min on a shared index), as the oneTBB peer does.
#include <algorithm>
#include <atomic>

#include "find_if/config.hpp"

namespace weft_bench::find_if {

timed<std::size_t> run_omp(const std::vector<std::int32_t>& v, int threads, int reps) {
  constexpr std::size_t chunk = 1 << 14;
  const std::size_t n = v.size();
  const std::size_t chunks = (n + chunk - 1) / chunk;
  return time_calls(reps, [&] {
    std::atomic<std::size_t> best{n};
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t lo = c * chunk;
      if (lo >= best.load(std::memory_order_relaxed)) continue;
      const std::size_t hi = std::min(n, lo + chunk);
      const auto it = std::find_if(v.begin() + static_cast<std::ptrdiff_t>(lo),
                                   v.begin() + static_cast<std::ptrdiff_t>(hi), pred);
      std::size_t at = static_cast<std::size_t>(it - v.begin());
      if (at == hi) continue;
      std::size_t cur = best.load(std::memory_order_relaxed);
      while (at < cur && !best.compare_exchange_weak(cur, at)) {
      }
    }
    return best.load();
  });
}

}  // namespace weft_bench::find_if
