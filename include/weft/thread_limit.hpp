// SPDX-License-Identifier: MIT
// weft::thread_limit: at most k threads of each pool run its work while the limit lives.
// Design: docs/guide.md#pools   Protocol: src/sched/limit.hpp
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "weft/detail/sched/runtime.hpp"

namespace weft {

/// A scoped cap on parallelism, as oneTBB's `global_control(max_allowed_parallelism, k)`:
/// while it lives, at most `k` threads of each pool (the global pool and every
/// `thread_pool`) run the pool's work: threads 0 to k - 1 (0 is the caller seat); the others
/// finish the work they hold and park in the kernel, and are woken when the limit goes.
/// Limits nest and may be created and destroyed from any threads in any order: the smallest
/// live one is in force. A limit takes effect at each thread's next search for work (a job
/// a thread is running goes on to its end there), and does not resize a pool:
/// `num_threads()` is unchanged. Broadcasts (`weft::broadcast`) still run on every thread.
/// Cost: none on the fork-join paths; a thread's search for work reads one shared word.
/// Exceptions: `std::invalid_argument` for `k == 0`; `std::bad_alloc`.
class thread_limit {
 public:
  explicit thread_limit(std::size_t k) : k_(k) { detail::rt::add_thread_limit(k); }
  ~thread_limit() { detail::rt::remove_thread_limit(k_); }
  thread_limit(const thread_limit&) = delete;
  thread_limit& operator=(const thread_limit&) = delete;

  /// The limit this object sets.
  std::size_t value() const noexcept { return k_; }
  /// The limit in force (the smallest live one), or `std::nullopt` when none is live.
  static std::optional<std::size_t> active() noexcept {
    const std::size_t k = detail::rt::thread_limit_in_force();
    if (k == static_cast<std::size_t>(~std::uint32_t{0})) return std::nullopt;
    return k;
  }

 private:
  std::size_t k_;
};

}  // namespace weft
