// SPDX-License-Identifier: MIT
// Latency of tbb::parallel_invoke of two trivial lambdas from main.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_invoke.h>

#include "latency/config.hpp"

namespace weft_bench::latency {

samples run_tbb(int awake_calls, int asleep_calls, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return measure(awake_calls, asleep_calls, [] {
    int a = 0, b = 0;
    tbb::parallel_invoke([&] { a = 1; }, [&] { b = 2; });
    return a + b;
  });
}

}  // namespace weft_bench::latency
