// SPDX-License-Identifier: MIT
// weft::isolate: run f so that a thread waiting inside it runs only work spawned inside it.
// Design: docs/guide.md#isolation   Protocol: docs/protocols/isolation.md
#pragma once

#include <functional>
#include <type_traits>

#include "weft/detail/fork/join_impl.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft {

/// Runs `f()` on the calling thread and returns what it returns, isolated: while the
/// calling thread waits inside `f` (for a join, a scope, a task_group, a future, a parallel
/// algorithm), it runs only work that was forked or spawned inside `f`, never other work of
/// the pool (oneTBB's `this_task_arena::isolate`). Work of `f` that another thread takes
/// runs isolated there as well. What it prevents: a thread that holds a lock (or is inside
/// a function-local static's initialisation) and waits inside a nested parallel call would
/// otherwise take an unrelated task of the pool that needs the same lock (or the same
/// static) and deadlock on itself.
/// Cost: nothing while no thread waits; a waiting thread with nothing of its own left to
/// run blocks instead of helping the pool, so isolate a region only where a lock or a lazy
/// initialisation needs it. Broadcast calls (weft::broadcast) still reach an isolated
/// thread. Detached tasks spawned inside `f` (weft::spawn) are not part of it once `f`
/// returns. Exceptions: those of `f`, unchanged. Thread safety: any thread; outside every
/// pool, every parallel call `f` makes runs isolated on its pool.
template <class F>
decltype(auto) isolate(F&& f) {
  static_assert(std::is_invocable_v<F&>, "weft::isolate(f): `f` must be callable with no arguments");
  if (detail::worker* w = detail::current_worker) {
    detail::isolation_frame frame(*w);
    return std::invoke(f);
  }
  struct outside_frame {
    outside_frame() noexcept { ++detail::outside_isolation_depth; }
    ~outside_frame() { --detail::outside_isolation_depth; }
    outside_frame(const outside_frame&) = delete;
    outside_frame& operator=(const outside_frame&) = delete;
  } frame;
  return std::invoke(f);
}

}  // namespace weft
