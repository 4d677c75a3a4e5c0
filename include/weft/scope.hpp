// SPDX-License-Identifier: MIT
// weft::scope: spawn any number of tasks that may borrow from the enclosing frame.
// Design: docs/design.md#scope   Protocol: docs/protocols/join.md#scope
#pragma once

#include <type_traits>
#include <utility>

#include "weft/detail/fork/join_impl.hpp"
#include "weft/detail/fork/scope_impl.hpp"

namespace weft {

/// The handle a `weft::scope` body receives; `spawn` adds a task to the scope.
class task_scope {
 public:
  /// Queues `f` to run, potentially in parallel. `f` is callable as `f()` or
  /// `f(task_scope&)` (to spawn more). It may borrow anything that outlives the scope.
  /// Allocation: one heap block per task. Exceptions: the first one thrown by any task is
  /// rethrown by `weft::scope` after every task finished.
  template <class F>
  void spawn(F&& f) {
    using Fn = std::decay_t<F>;
    static_assert(std::is_invocable_v<Fn&> || std::is_invocable_v<Fn&, task_scope&>,
                  "task_scope::spawn(f): `f` must be callable as f() or f(task_scope&)");
    auto* job = new detail::heap_task<Fn, task_scope>(Fn(std::forward<F>(f)), *this);
    state_.add_task();
    detail::worker* w = detail::current_worker;
    if (w != nullptr && w->reg == state_.reg()) {
      if (!w->deque.push(job)) [[unlikely]] {
        job->execute(job);
        return;
      }
      if (w->someone_is_hungry()) detail::rt::share_work(*w);
    } else {
      detail::rt::inject(state_.reg(), job);
    }
  }

  /// Internal: the scope's counters, for weft's own task types. Not part of the API.
  detail::scope_state& state() noexcept { return state_; }

 private:
  template <class Body>
  friend auto scope(Body&& body);
  template <class Body>
  friend auto scope_in_worker(detail::worker& w, Body& body);

  task_scope(detail::registry* reg, detail::worker* owner) noexcept : state_(reg, owner) {}
  detail::scope_state state_;
};

/// Internal: `weft::scope` on worker `w` of the calling thread. Call `weft::scope` instead.
template <class Body>
auto scope_in_worker(detail::worker& w, Body& body) {
  using R = std::invoke_result_t<Body&, task_scope&>;
  task_scope s(w.reg, &w);
  const std::uint32_t floor = w.deque.size_for_owner();
  detail::result_slot<R> result;
  auto run_body = [&]() -> R { return std::invoke(body, s); };
  result.run(run_body);
  if (result.failed()) s.state_.record(result.take_error());
  s.state_.task_done();
  if (!s.state_.latch().probe()) detail::rt::wait_until(w, s.state_.latch(), floor, nullptr);
  if (s.state_.failed()) {
    result.discard();
    s.state_.rethrow_if_failed();
  }
  if constexpr (!std::is_void_v<R>) return result.take();
}

/// Runs `body(s)` and returns only when every task spawned through `s` (and the tasks
/// they spawned) has finished: `weft::scope([&](auto& s) { s.spawn(f); s.spawn(g); });`
/// Returns what `body` returns. Exceptions: the first exception (of the body or any task)
/// is rethrown after all tasks finished; the pool stays usable.
/// Preconditions: `body` is callable as `body(task_scope&)` (checked at compile time); the
/// `task_scope&` must not be used after `scope` returns (do not let it escape).
/// Thread safety: callable from any thread (outside every pool it runs on the global pool);
/// `spawn` may be called from the body and from the scope's tasks, on any of their threads.
/// Allocation: none for the scope itself; one heap block per spawned task.
/// Complexity: O(number of tasks) scheduling work beyond the tasks themselves.
template <class Body>
auto scope(Body&& body) {
  static_assert(std::is_invocable_v<Body&, task_scope&>,
                "weft::scope(body): `body` must be callable as body(task_scope&), "
                "e.g. [&](auto& s) { s.spawn(...); }");
  if (detail::worker* w = detail::current_worker) [[likely]]
    return scope_in_worker(*w, body);
  auto whole = [&] { return scope_in_worker(*detail::current_worker, body); };
  return detail::run_in(detail::rt::global_registry(), whole);
}

}  // namespace weft
