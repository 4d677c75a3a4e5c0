// SPDX-License-Identifier: MIT
// weft::task_group: oneTBB's task_group on weft's pools (run, wait, cancel).
// Design: docs/guide.md#tasks   Protocol: docs/protocols/spawn.md#task_group
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "weft/detail/fork/join_impl.hpp"
#include "weft/detail/fork/scope_impl.hpp"
#include "weft/stop.hpp"

namespace weft {

/// What `task_group::wait` reports: every task ran (`complete`), or the group was
/// canceled before some of them started (`canceled`).
enum class task_group_status { complete, canceled };

/// A group of tasks to run in parallel and wait for, with oneTBB's shape:
/// `weft::task_group g; g.run(f); g.run(h); g.wait();`. Unlike `weft::scope`, `run` and
/// `wait` need not sit in one block: the group is an object that may be passed around, and
/// may be reused after `wait`.
///
/// The group works on the pool of the thread that constructs it (the global pool outside
/// every pool). Tasks may call `run` on their own group (as many levels deep as wanted):
/// such a run costs what a scope's spawn costs (docs/protocols/spawn.md).
/// Exceptions: the first exception thrown by a task cancels the group (tasks not started yet
/// are skipped) and is rethrown by `wait`. A group built with a `std::stop_token` is
/// canceled when the token is stopped (oneTBB's task_group_context::cancel_group_execution,
/// driven by C++20 stop tokens). Thread safety: `run` and `cancel` may be called
/// from any thread, including the group's own tasks; `wait` by one thread at a time, and not
/// while another thread may still call `run` for the tasks it waits for.
class task_group {
 public:
  /// Allocation: none.
  task_group() noexcept
      : state_(detail::current_registry(), nullptr, true), owner_(detail::current_worker) {
    if (owner_ != nullptr && owner_->reg != state_.reg()) owner_ = nullptr;
  }
  /// A group that is canceled once `stop` is stopped: tasks that have not started are
  /// skipped from then on, and `wait` reports `canceled`. While the token stays stopped the
  /// group stays canceled, also after `wait`. Allocation: none (one std::stop_callback
  /// registration when the token has a stop source).
  explicit task_group(std::stop_token stop) : task_group() {
    if (!stop.stop_possible()) return;
    stop_ = std::move(stop);
    on_stop_.emplace(stop_, detail::cancel_on_stop{&state_});
  }
  /// Waits for the tasks still running; their exception, if any, is dropped (call `wait`
  /// to see it).
  ~task_group() {
    if (state_.only_standing_unit()) return;
    try {
      static_cast<void>(wait());
    } catch (...) {
    }
  }
  task_group(const task_group&) = delete;
  task_group& operator=(const task_group&) = delete;

  /// Queues `f()` to run, potentially in parallel. `f` may borrow anything that outlives
  /// the next `wait` (checked at compile time: callable with no arguments). Allocation: as
  /// `task_scope::spawn`. Never blocks.
  template <class F>
  void run(F&& f) {
    static_assert(std::is_invocable_v<std::decay_t<F>&>,
                  "weft::task_group::run(f): `f` must be callable with no arguments");
    detail::worker* const pushed_on = detail::spawn_into(*this, std::forward<F>(f));
    // The constructing worker remembers where its first task outside the group's frames
    // went, so that wait() can run them itself (newest first).
    if (pushed_on != nullptr && pushed_on == owner_ && floor_ == no_floor)
      floor_ = pushed_on->deque.size_for_owner() - 1;
  }

  /// Runs every task of the group (helping: the calling thread runs the group's tasks and
  /// other work of the pool meanwhile), then rethrows the first exception, if any. The
  /// group is then empty, no longer canceled, and may be used again.
  /// Called outside the group's pool, the calling thread blocks until the tasks are done.
  task_group_status wait();

  /// `run(f)` then `wait()`.
  template <class F>
  task_group_status run_and_wait(F&& f) {
    run(std::forward<F>(f));
    return wait();
  }

  /// Tasks that have not started yet are skipped; running tasks finish (they may poll
  /// `is_canceling()`). Until the next `wait` returns.
  void cancel() noexcept { state_.cancel(); }
  /// Whether the group was canceled (by `cancel` or by an exception) and not waited for
  /// since.
  bool is_canceling() const noexcept { return state_.canceled(); }

  /// Internal: for weft's task types. Not part of the API.
  detail::scope_state& state() noexcept { return state_; }

 private:
  static constexpr std::uint32_t no_floor = ~std::uint32_t{0};
  task_group_status wait_in_worker(detail::worker& w);
  task_group_status finish_wait(detail::worker* w);
  std::uint32_t drain_floor(const detail::worker& w) const noexcept;

  detail::scope_state state_;
  detail::worker* owner_;
  std::uint32_t floor_ = no_floor;  // owner_ only
  // After state_: a stop request cancels state_; destroyed first (no callback runs after).
  std::stop_token stop_;
  detail::stop_link on_stop_;
};

inline task_group_status task_group::wait() {
  detail::worker* const w = detail::current_worker;
  if (w != nullptr && w->reg == state_.reg()) [[likely]]
    return wait_in_worker(*w);
  // Outside the pool: block (a futex latch). Entering the pool to help would run this wait
  // as a job, possibly nested inside a worker whose stack holds one of the group's tasks.
  state_.set_waiter(nullptr);
  floor_ = no_floor;
  state_.task_done();  // the standing unit
  state_.latch().wait_blocking();
  return finish_wait(nullptr);
}

inline task_group_status task_group::finish_wait(detail::worker* w) {
  const task_group_status status =
      state_.canceled() ? task_group_status::canceled : task_group_status::complete;
  std::exception_ptr error = state_.failed() ? state_.error() : nullptr;
  state_.reset_after_wait(w);
  // The token still stopped: the group stays canceled (a callback that ran before the reset
  // does not run again).
  if (stop_.stop_requested()) state_.cancel();
  if (error) std::rethrow_exception(std::move(error));
  return status;
}

// How far down the waiter may run its own deque: to the slot of the group's first task if
// it pushed the group's tasks itself and nothing between is a join's B (untagged) or below
// the innermost frame's floor; otherwise only what lies above the current height.
inline std::uint32_t task_group::drain_floor(const detail::worker& w) const noexcept {
  if (&w != owner_ || floor_ == no_floor) return w.deque.size_for_owner();
  return detail::reachable_floor(w, floor_);
}

inline task_group_status task_group::wait_in_worker(detail::worker& w) {
  // pending_ holds the group's standing unit, so nobody sets the latch before it is released.
  state_.set_waiter(&w);
  const bool own_below = &w == owner_ && floor_ != no_floor && floor_ < w.deque.size_for_owner();
  const std::uint32_t floor = drain_floor(w);
  detail::run_own_jobs_down_to(w, floor);
  if (own_below && floor != floor_) {
    // The group's tasks lie under a join's B or a frame this wait sits in: other threads
    // must take them. A pool of one thread has none.
    if (detail::rt::num_threads(w.reg) == 1)
      detail::fatal("weft::task_group::wait(): the group's tasks lie under a join or scope "
                    "that started after they were run, on a pool of one thread");
    detail::rt::share_all_work(w);
  }
  floor_ = no_floor;
  state_.task_done();  // the standing unit
  if (!state_.latch().probe())
    detail::rt::wait_until(w, state_.latch(), w.deque.size_for_owner(), nullptr);
  return finish_wait(&w);
}

}  // namespace weft
