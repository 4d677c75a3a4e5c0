// SPDX-License-Identifier: MIT
// weft::yield_now, weft::yield_local and weft::current_thread_has_pending_tasks: a long task
// lets other work of its pool through. Design: docs/guide.md#pools
#pragma once

#include <optional>

#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft {

/// What `yield_now` and `yield_local` did on a thread of a pool (Rayon's `Yield`).
enum class yield_result {
  executed,  ///< it ran one job of the pool (which may have run further work nested in it)
  idle,      ///< it found nothing to run
};

/// For a long-running task or a polling loop on a pool's thread: takes one pending job of
/// the pool, runs it on this thread, and returns `executed`; `idle` when there is none (a
/// polling loop may then yield to the OS itself: this does not). Where it looks: the
/// thread's broadcast mail, the newest task (spawn, scope or task_group) on its own deque
/// above the innermost scope's start, then another thread's deque (a steal) and the jobs
/// submitted from outside. It never runs the other half of an enclosing join: that join
/// runs it. In an isolated region (weft::isolate) or above a weft::thread_limit it looks
/// only at the thread's own work, as `yield_local` does. Outside every pool: `std::nullopt`,
/// and nothing runs. Exceptions: none (a job's exception goes where that job sends it).
/// Thread safety: the calling thread's own pool only. Allocation: none.
inline std::optional<yield_result> yield_now() noexcept {
  detail::worker* w = detail::current_worker;
  if (w == nullptr) return std::nullopt;
  return detail::rt::yield(*w, false) ? yield_result::executed : yield_result::idle;
}

/// As `yield_now`, but runs only this thread's own work: its mail, or the newest task on
/// its own deque above the innermost scope's start; never a stolen or injected job.
/// Outside every pool: `std::nullopt`.
inline std::optional<yield_result> yield_local() noexcept {
  detail::worker* w = detail::current_worker;
  if (w == nullptr) return std::nullopt;
  return detail::rt::yield(*w, true) ? yield_result::executed : yield_result::idle;
}

/// Whether the calling thread's own deque holds jobs that nobody has taken yet (tasks it
/// spawned, the other halves of its joins), for a breadth-first scheduler deciding whether
/// to spawn more or run inline. Racy: another thread may steal them as this returns.
/// Outside every pool: `std::nullopt`. Allocation: none.
inline std::optional<bool> current_thread_has_pending_tasks() noexcept {
  const detail::worker* w = detail::current_worker;
  if (w == nullptr) return std::nullopt;
  return w->deque.has_private() || !w->deque.public_is_empty();
}

}  // namespace weft
