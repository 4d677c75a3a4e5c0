// SPDX-License-Identifier: MIT
// Idle CPU after a oneTBB burst, with the thread cap held through the idle sleep.
#include <oneapi/tbb/global_control.h>

#include "idle/config.hpp"

namespace weft_bench::idle {

std::vector<sample> run_tbb(int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return measure(reps, [] {
    const std::uint64_t r = fib::fib_tbb(fib::burst_n);
    fib::check("tbb", fib::burst_n, r);
  });
}

}  // namespace weft_bench::idle
