// SPDX-License-Identifier: MIT
// The cheap clock behind the engine's sequential probe. Walkthrough: docs/plumbing.md#the-sequential-probe
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace weft::plumbing {

/// A monotonic tick counter for cost estimates, never for correctness. On x86 it is the TSC
/// (about 12 ns a read on the reference machine, against 30 ns for steady_clock); a tick
/// is taken as 1/3 ns, which holds within a factor of two on the machines weft targets and
/// is all the engine's thresholds need. Elsewhere it counts steady_clock nanoseconds.
inline std::uint64_t cost_clock_now() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
#endif
}

/// Cost-clock ticks per nanosecond, as assumed by the engine's thresholds (see above).
#if defined(__x86_64__) || defined(__i386__)
inline constexpr double cost_ticks_per_ns = 3.0;
#else
inline constexpr double cost_ticks_per_ns = 1.0;
#endif

}  // namespace weft::plumbing
