// SPDX-License-Identifier: MIT
// Latency of weft::join from main, outside any install: it runs on the global pool.
#include <weft/weft.hpp>

#include "latency/config.hpp"

namespace weft_bench::latency {

samples run_weft(int awake_calls, int asleep_calls, int /*threads*/) {
  return measure(awake_calls, asleep_calls, [] {
    auto [a, b] = weft::join([] { return 1; }, [] { return 2; });
    return a + b;
  });
}

}  // namespace weft_bench::latency
