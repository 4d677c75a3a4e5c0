// SPDX-License-Identifier: MIT
// weft::scope and weft::scope_fifo: spawn any number of tasks that may borrow from the
// enclosing frame.
// Design: docs/design.md#scope   Protocol: docs/protocols/spawn.md
#pragma once

#include <atomic>
#include <cstddef>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "weft/detail/fork/fifo_impl.hpp"
#include "weft/detail/fork/join_impl.hpp"
#include "weft/detail/fork/scope_impl.hpp"
#include "weft/stop.hpp"

namespace weft {

/// The handle a `weft::scope` body receives; `spawn` adds a task to the scope.
class task_scope {
 public:
  /// Queues `f` to run, potentially in parallel. `f` is callable as `f()` or
  /// `f(task_scope&)` (to spawn more). It may borrow anything that outlives the scope.
  /// Allocation: none on a worker of the scope's pool for a callable of up to 472 bytes
  /// (a block of the worker's spawn arena); otherwise one heap block. Exceptions: the first
  /// one thrown by any task is rethrown by `weft::scope` after every task finished.
  /// Complexity: a task nobody steals costs a push, a pop and a free-list block, no atomic
  /// operation (docs/protocols/spawn.md).
  template <class F>
  void spawn(F&& f) {
    using Fn = std::decay_t<F>;
    static_assert(std::is_invocable_v<Fn&> || std::is_invocable_v<Fn&, task_scope&>,
                  "task_scope::spawn(f): `f` must be callable as f() or f(task_scope&)");
    detail::spawn_into(*this, std::forward<F>(f));
  }

  /// Whether the scope's stop token (`weft::scope(token, body)`) was stopped: tasks that have
  /// not started yet are skipped from then on, and running ones may poll this to end early.
  bool stop_requested() const noexcept { return state_.canceled(); }

  /// Internal: the scope's counters, for weft's own task types. Not part of the API.
  detail::scope_state& state() noexcept { return state_; }
  /// Internal: the scope whose group counter is `group` (the first member of state_, which
  /// is this class's only member: the three are pointer-interconvertible).
  static task_scope& from_group(std::atomic<std::size_t>* group) noexcept;

 private:
  template <class Scope, class Body>
  friend auto scope_in_worker(detail::worker& w, Body& body, const std::stop_token* stop);

  task_scope(detail::registry* reg, detail::worker* owner) noexcept : state_(reg, owner) {}
  detail::scope_state state_;
};

inline task_scope& task_scope::from_group(std::atomic<std::size_t>* group) noexcept {
  static_assert(std::is_standard_layout_v<task_scope> &&
                std::is_standard_layout_v<detail::scope_state>);
  return *reinterpret_cast<task_scope*>(group);
}

/// The handle a `weft::scope_fifo` body receives; `spawn_fifo` adds a task to the scope.
class task_scope_fifo {
 public:
  /// Queues `f` to run, potentially in parallel, as `task_scope::spawn` does, except for
  /// the order: the tasks one thread spawns with `spawn_fifo` start in spawn order when
  /// that thread runs them itself (a plain `spawn` runs the newest first); idle threads
  /// still take the oldest. `f` is callable as `f()` or `f(task_scope_fifo&)` (to spawn
  /// more). It may borrow anything that outlives the scope.
  /// Allocation: on a worker of the scope's pool, two spawn arena blocks (`f`, up to 488
  /// bytes, and the job that runs it); otherwise heap blocks. Exceptions: the first one
  /// thrown by any task is rethrown by `weft::scope_fifo` after every task finished.
  /// Complexity: a task costs a spawn plus an uncontended lock and unlock of a queue
  /// (`docs/protocols/spawn.md#fifo-spawns`).
  template <class F>
  void spawn_fifo(F&& f) {
    using Fn = std::decay_t<F>;
    static_assert(std::is_invocable_v<Fn&> || std::is_invocable_v<Fn&, task_scope_fifo&>,
                  "task_scope_fifo::spawn_fifo(f): `f` must be callable as f() or "
                  "f(task_scope_fifo&)");
    detail::spawn_fifo_into(*this, queues_, std::forward<F>(f));
  }

  /// Internal: the scope's counters, for weft's own task types. Not part of the API.
  detail::scope_state& state() noexcept { return state_; }
  /// Internal: the scope whose group counter is `group` (the first member of state_, which
  /// is this class's first member).
  static task_scope_fifo& from_group(std::atomic<std::size_t>* group) noexcept;

 private:
  template <class Scope, class Body>
  friend auto scope_in_worker(detail::worker& w, Body& body, const std::stop_token* stop);

  // Q4: the group never cancels (cancel_on_error is false and nothing calls cancel).
  task_scope_fifo(detail::registry* reg, detail::worker* owner)
      : state_(reg, owner), queues_(detail::rt::num_threads(reg)) {}
  detail::scope_state state_;
  detail::fifo_queues queues_;
};

inline task_scope_fifo& task_scope_fifo::from_group(std::atomic<std::size_t>* group) noexcept {
  static_assert(std::is_standard_layout_v<task_scope_fifo> &&
                std::is_standard_layout_v<detail::scope_state>);
  return *reinterpret_cast<task_scope_fifo*>(group);
}

/// Internal: `weft::scope` (Scope = task_scope) or `weft::scope_fifo` (task_scope_fifo) on
/// worker `w` of the calling thread, stopped by `stop` if not null. Call those instead.
template <class Scope, class Body>
auto scope_in_worker(detail::worker& w, Body& body, const std::stop_token* stop) {
  using R = std::invoke_result_t<Body&, Scope&>;
  Scope s(w.reg, &w);
  detail::scope_state& state = s.state();
  detail::stop_link on_stop;  // destroyed after the wait: no task runs by then
  if (stop != nullptr) on_stop.emplace(*stop, detail::cancel_on_stop{&state});
  detail::result_slot<R> result;
  std::uint32_t floor;
  {
    detail::spawn_frame frame(w, state.group());
    floor = frame.floor();
    auto run_body = [&]() -> R { return std::invoke(body, s); };
    result.run(run_body);
    if (result.failed()) state.record(result.take_error());
    frame.run_own_jobs();  // S3: this scope's private tasks first, newest first
  }
  state.task_done();
  if (!state.latch().probe()) detail::rt::wait_until(w, state.latch(), floor, nullptr);
  if (state.failed()) {
    result.discard();
    state.rethrow_if_failed();
  }
  if constexpr (!std::is_void_v<R>) return result.take();
}

/// Internal: scope_in_worker on the calling thread's worker, or on the global pool from
/// outside every pool. Call `weft::scope` or `weft::scope_fifo` instead.
template <class Scope, class Body>
auto run_scope(Body& body, const std::stop_token* stop) {
  if (detail::worker* w = detail::current_worker) [[likely]]
    return scope_in_worker<Scope>(*w, body, stop);
  auto whole = [&] { return scope_in_worker<Scope>(*detail::current_worker, body, stop); };
  return detail::run_in(detail::rt::global_registry(), whole);
}

/// Runs `body(s)` and returns only when every task spawned through `s` (and the tasks
/// they spawned) has finished: `weft::scope([&](auto& s) { s.spawn(f); s.spawn(g); });`
/// Returns what `body` returns. Exceptions: the first exception (of the body or any task)
/// is rethrown after all tasks finished; the pool stays usable.
/// Preconditions: `body` is callable as `body(task_scope&)` (checked at compile time); the
/// `task_scope&` must not be used after `scope` returns (do not let it escape).
/// Thread safety: callable from any thread (outside every pool it runs on the global pool);
/// `spawn` may be called from the body and from the scope's tasks, on any of their threads.
/// Allocation: none for the scope itself; per task, see task_scope::spawn.
/// Complexity: O(number of tasks) scheduling work beyond the tasks themselves.
template <class Body>
auto scope(Body&& body) {
  static_assert(std::is_invocable_v<Body&, task_scope&>,
                "weft::scope(body): `body` must be callable as body(task_scope&), "
                "e.g. [&](auto& s) { s.spawn(...); }");
  return run_scope<task_scope>(body, nullptr);
}

/// `weft::scope(body)` that stops starting tasks once `stop` is stopped: from the moment
/// `request_stop()` is called on its source, tasks of the scope that have not started are
/// skipped (as if they returned at once); running tasks and the body finish, and may poll
/// `s.stop_requested()` or `weft::stop_requested()` to end early. A token stopped before the
/// call skips every task. The scope then returns normally: whether it was stopped is the
/// token's to say. Exceptions, threads, allocation: as `weft::scope(body)`, plus the
/// registration of one `std::stop_callback` (none for a token with no stop source).
template <class Body>
auto scope(std::stop_token stop, Body&& body) {
  static_assert(std::is_invocable_v<Body&, task_scope&>,
                "weft::scope(stop, body): `body` must be callable as body(task_scope&), "
                "e.g. [&](auto& s) { s.spawn(...); }");
  return run_scope<task_scope>(body, stop.stop_possible() ? &stop : nullptr);
}

/// `weft::scope` with FIFO spawns: runs `body(s)` with a `task_scope_fifo& s` and returns
/// only when every task spawned through `s.spawn_fifo` (and the tasks they spawned) has
/// finished. The tasks one thread spawns start in spawn order when that thread runs them
/// itself: `weft::scope_fifo([&](auto& s) { for (auto& e : events) s.spawn_fifo(...); });`
/// Returns what `body` returns. Exceptions: the first exception (of the body or any task)
/// is rethrown after all tasks finished; the pool stays usable. Preconditions, thread
/// safety: as `weft::scope`. Allocation: one heap block for the scope's queues (a cache
/// line per thread of the pool, plus one); per task, see task_scope_fifo::spawn_fifo.
template <class Body>
auto scope_fifo(Body&& body) {
  static_assert(std::is_invocable_v<Body&, task_scope_fifo&>,
                "weft::scope_fifo(body): `body` must be callable as body(task_scope_fifo&), "
                "e.g. [&](auto& s) { s.spawn_fifo(...); }");
  return run_scope<task_scope_fifo>(body, nullptr);
}

}  // namespace weft
