// SPDX-License-Identifier: MIT
// Idle CPU after weft bursts: on a thread_pool (kept alive while idle) and on the global pool.
#include <weft/weft.hpp>

#include "idle/config.hpp"

namespace weft_bench::idle {

std::vector<sample> run_weft(int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return measure(reps, [&] {
    const std::uint64_t r = pool.install([] { return fib::fib_weft(fib::burst_n); });
    fib::check("weft", fib::burst_n, r);
  });
}

// The global pool ignores `threads`: it is sized by WEFT_NUM_THREADS or the hardware.
std::vector<sample> run_weft_global(int /*threads*/, int reps) {
  return measure(reps, [] {
    const std::uint64_t r = fib::fib_weft(fib::burst_n);
    fib::check("weft-global", fib::burst_n, r);
  });
}

}  // namespace weft_bench::idle
