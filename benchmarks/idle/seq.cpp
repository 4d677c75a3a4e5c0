// SPDX-License-Identifier: MIT
// Idle floor: no burst at all, so the row shows what the sleeping process costs anyway.
#include "idle/config.hpp"

namespace weft_bench::idle {

std::vector<sample> run_seq(int /*threads*/, int reps) {
  return measure(reps, [] {});
}

}  // namespace weft_bench::idle
