// SPDX-License-Identifier: MIT
// The per-thread worker context that the inline fork-join fast path touches.
// Design: docs/design.md#thread-states
#pragma once

#include <atomic>
#include <cstdint>

#include "weft/detail/config.hpp"
#include "weft/detail/sync/cache_padded.hpp"
#include "weft/detail/sync/split_deque.hpp"

namespace weft::detail {

class registry;

struct alignas(cache_line_bytes) worker {
  split_deque deque;
  registry* reg = nullptr;
  // The sleep module's counters word; non-zero idle bits mean a thread is hungry.
  const std::atomic<std::uint64_t>* sleep_counters = nullptr;
  std::uint32_t index = 0;
  std::uint64_t rng_state = 0;

  // Bits of the sleep counters that count idle (inactive) threads; see sched/sleep.hpp.
  static constexpr std::uint64_t inactive_mask = 0xFFFFull << 16;

  // Relaxed and racy on purpose: a stale answer costs parallelism, never correctness,
  // because an unpublished job is always run by its owner (docs/protocols/deque.md).
  bool someone_is_hungry() const noexcept {
    return (sleep_counters->load(std::memory_order_relaxed) & inactive_mask) != 0;
  }
};

// The worker the current thread is acting as, or nullptr outside every pool. Exported so that
// a shared libweft and the inline code in its users share one variable.
WEFT_API constinit inline thread_local worker* current_worker = nullptr;

}  // namespace weft::detail
