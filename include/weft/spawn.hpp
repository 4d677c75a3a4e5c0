// SPDX-License-Identifier: MIT
// weft::spawn and weft::spawn_fifo: detached tasks on the current pool, and weft::wait_idle.
// Design: docs/guide.md#tasks   Protocol: docs/protocols/spawn.md#detached-tasks
#pragma once

#include <type_traits>
#include <utility>

#include "weft/detail/fork/detached_impl.hpp"
#include "weft/detail/fork/fifo_impl.hpp"
#include "weft/detail/fork/join_impl.hpp"

namespace weft {

/// Starts `f()` on the current pool (the calling worker's, or the global pool) and returns
/// at once: nobody waits for it by name. `f` owns what it needs (capture by value): it may
/// run after the caller's frame is gone. `weft::wait_idle()` (or the pool's destructor, for
/// a `thread_pool`) waits for every detached task of the pool.
/// Exceptions: one that escapes `f` goes to the pool's `pool_options::on_task_exception`
/// (default: printed, then std::terminate), never lost. Allocation: as `task_scope::spawn`.
/// Thread safety: any thread. Preconditions: `f` is callable with no arguments (checked at
/// compile time).
template <class F>
void spawn(F&& f) {
  static_assert(std::is_invocable_v<std::decay_t<F>&>,
                "weft::spawn(f): `f` must be callable with no arguments");
  detail::spawn_detached(detail::current_registry(), std::forward<F>(f));
}

/// `weft::spawn` in FIFO order: the tasks one thread spawns with `spawn_fifo` start in spawn
/// order when that thread runs them itself (`weft::spawn` runs the newest first); idle
/// threads still take the oldest. Counted, waited for and reported exactly as `weft::spawn`.
/// Allocation: from a worker of the pool, two spawn arena blocks (`f`, up to 488 bytes, and
/// the job that runs it); otherwise heap blocks. Each task also locks and unlocks a queue
/// (`docs/protocols/spawn.md#fifo-spawns`). Thread safety: any thread. Preconditions: `f` is
/// callable with no arguments (checked at compile time).
template <class F>
void spawn_fifo(F&& f) {
  static_assert(std::is_invocable_v<std::decay_t<F>&>,
                "weft::spawn_fifo(f): `f` must be callable with no arguments");
  detail::spawn_fifo_detached(detail::current_registry(), std::forward<F>(f));
}

/// Waits until no detached task of the current pool (the calling worker's, or the global
/// pool) is pending: a worker runs the pool's work meanwhile, a thread outside every pool
/// blocks. Must not be called from a detached task of that pool (it would wait for itself).
inline void wait_idle() {
  if (detail::worker* w = detail::current_worker)
    detail::rt::wait_idle(*w);
  else
    detail::rt::wait_idle_blocking(detail::rt::global_registry());
}

}  // namespace weft
