// SPDX-License-Identifier: MIT
// Latency floor: the two lambdas called one after the other, no runtime; mostly clock cost.
#include "latency/config.hpp"

namespace weft_bench::latency {
namespace {

// Not inlined, so the floor keeps one real call like the runtimes' entry points.
[[gnu::noinline]] int both() {
  const int a = [] { return 1; }();
  const int b = [] { return 2; }();
  return a + b;
}

}  // namespace

samples run_seq(int awake_calls, int asleep_calls, int /*threads*/) {
  return measure(awake_calls, asleep_calls, both);
}

}  // namespace weft_bench::latency
