// SPDX-License-Identifier: MIT
// weft::async and weft::future: a task whose result is collected later; then, when_all.
// Design: docs/guide.md#tasks   Protocol: docs/protocols/spawn.md#futures
#pragma once

#include <cstdint>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "weft/detail/fork/future_impl.hpp"
#include "weft/detail/fork/join_impl.hpp"

namespace weft {

/// The result of `weft::async(f)`, collected by `get()`. Move-only. `get()` and `wait()`
/// never block the thread while the result is not there: they run the task themselves if it
/// is still queued on this thread, and other work of the pool otherwise. The destructor
/// waits for the task (it may borrow what the caller borrowed). One thread at a time may
/// use a future.
template <class T>
class future {
 public:
  future() noexcept = default;
  future(future&& other) noexcept
      : state_(std::exchange(other.state_, nullptr)), reg_(other.reg_) {
    if (other.eager()) move_inline_from(other);
  }
  future& operator=(future&& other) noexcept {
    if (this != &other) {
      release();
      state_ = std::exchange(other.state_, nullptr);
      reg_ = other.reg_;
      if (other.eager()) move_inline_from(other);
    }
    return *this;
  }
  future(const future&) = delete;
  future& operator=(const future&) = delete;
  ~future() { release(); }

  /// Whether the future holds a result to come (false after `get()` or a move).
  bool valid() const noexcept { return eager() || state_ != nullptr; }
  /// Whether the result is there (never waits). Precondition: `valid()`.
  bool is_ready() const noexcept { return eager() || state_->ready(); }

  /// Returns once the result is there, running the pool's work meanwhile (a thread outside
  /// the task's pool blocks instead). Precondition: `valid()`.
  void wait() noexcept {
    if (!eager()) wait_for(state_, reg_);
  }

  /// Waits, then returns the task's result or rethrows its exception; the future is then
  /// empty (`valid()` is false). Precondition: `valid()`.
  T get() {
    if (eager()) {
      if constexpr (std::is_void_v<T>)
        inline_.take();
      else
        return inline_.take();
    }
    return take_from(std::exchange(state_, nullptr), reg_);
  }

  /// A future of `g(value)` (or `g()` for a void future): a task started once this future's
  /// result is there, by the thread that produced it (at once if it is there already).
  /// Consumes this future; the new one's `get()` rethrows what this one's would have.
  template <class G>
  auto then(G&& g) &&;

  /// Internal: the task whose result is still to come, or nullptr (eager, or ready). Not
  /// part of the API.
  detail::async_state<T>* pending_task() const noexcept {
    return eager() || state_->ready() ? nullptr : state_;
  }
  /// Internal: adopts a started task. Not part of the API.
  future(detail::async_state<T>* state, detail::registry* reg) noexcept
      : state_(state), reg_(reg) {}
  /// Internal: runs `f` now, into the future (async's unrecorded path). Not part of the API.
  template <class F>
  future(detail::deferred_t, F& f) noexcept { inline_.run(f); }

 private:
  bool eager() const noexcept { return inline_.filled(); }
  void move_inline_from(future& other) noexcept {
    // Only a value or an exception: result_slot keeps its state in place, so move it by
    // taking from one and refilling the other.
    if constexpr (std::is_void_v<T>) {
      auto refill = [&other] { other.inline_.take(); };
      inline_.run(refill);
    } else {
      auto refill = [&other]() -> T { return other.inline_.take(); };
      inline_.run(refill);
    }
  }

  void release() noexcept {
    if (eager()) inline_.discard();
    if (state_ != nullptr) release_task(std::exchange(state_, nullptr), reg_);
  }

  // The paths of a started task, out of line: the caller's frame then holds only what an
  // eager future needs (async_fib(25): 22 instructions a level, 33 with these inline).
  [[gnu::noinline]] static void wait_for(detail::async_state<T>* s,
                                         detail::registry* reg) noexcept {
    if (detail::worker* w = detail::current_worker; w != nullptr && w->reg == reg)
      s->wait_in_worker(*w);
    else
      s->wait_blocking();
  }
  [[gnu::noinline]] static T take_from(detail::async_state<T>* s, detail::registry* reg) {
    wait_for(s, reg);
    struct free_on_exit {
      detail::async_state<T>* s;
      ~free_on_exit() { s->destroy(); }
    } guard{s};
    if constexpr (std::is_void_v<T>)
      s->result().take();
    else
      return s->result().take();
  }
  [[gnu::noinline]] static void release_task(detail::async_state<T>* s,
                                             detail::registry* reg) noexcept {
    wait_for(s, reg);
    s->destroy();
  }

  detail::async_state<T>* state_ = nullptr;
  detail::registry* reg_ = nullptr;
  // Filled when async ran `f` at once (the future is then "eager"); emptied by get(), a
  // move or the destructor. Its own state byte says which, so an eager future costs no
  // flag of its own.
  detail::result_slot<T> inline_;
};

/// Starts `f()` as a task on the current pool (the calling worker's, or the global pool) and
/// returns a `weft::future` of its result. A task nobody steals costs what a join's second
/// side costs plus a free-list block: `get()` takes it back and runs it on this thread. Where
/// a join would run its sides as plain calls (the worker keeps its bound of private forks
/// and no thread is idle), `async` runs `f` at once and the future holds its result.
/// Exceptions: what `f` throws is rethrown by `get()`. Preconditions: `f` is callable with
/// no arguments (checked at compile time). Allocation: one block per task (the future owns
/// it).
template <class F>
auto async(F&& f) {
  static_assert(std::is_invocable_v<std::decay_t<F>&>,
                "weft::async(f): `f` must be callable with no arguments");
  using T = std::invoke_result_t<std::decay_t<F>&>;
  // The join's unrecorded path (ADR 0006): a worker that already keeps its bound of
  // private forks while no thread is idle runs `f` now; get() then only takes the value.
  if (__builtin_expect(detail::current_gate->load(std::memory_order_relaxed) != 0, 1))  // G4
    return future<T>(detail::deferred, f);
  const detail::started_async<T> task =
      detail::async_slow<T, F>(static_cast<detail::fork_arg_t<F>>(f));
  if (task.state == nullptr) return future<T>(detail::deferred, f);
  return future<T>(task.state, task.reg);
}

namespace detail {

// then / when_all: `body` (which owns the input futures) as a task started once every
// input in `pending` is ready (F4 in future_impl.hpp). With none pending it is a plain
// weft::async: the inputs' results are there, so the body waits for nothing.
template <class F, class... In>
auto start_after(F&& body, async_state<In>*... pending) {
  using R = std::invoke_result_t<std::decay_t<F>&>;
  constexpr std::uint32_t none = ~std::uint32_t{0};
  const std::uint32_t inputs = (std::uint32_t{pending != nullptr} + ...);
  if (inputs == 0) return weft::async(std::forward<F>(body));
  registry* const reg = current_registry();
  worker* const w = own_worker_of(reg);
  // The lowest input still queued on this thread's deque: the owner's wait reaches it.
  std::uint32_t reach_slot = none;
  auto lower_reach = [&](auto* input) {
    if (input != nullptr && w != nullptr && input->spawner() == w && input->slot() < reach_slot)
      reach_slot = input->slot();
  };
  (lower_reach(pending), ...);
  auto* task = async_task<std::decay_t<F>, R, continuation_link>::chain(
      reg, std::forward<F>(body), reach_slot == none ? nullptr : w,
      reach_slot == none ? 0 : reach_slot, inputs);
  continuation_link& link = task->link();
  auto attach = [&link](auto* input) {
    if (input != nullptr && !input->register_continuation(link)) link.input_ready();
  };
  (attach(pending), ...);
  link.input_ready();  // the builder's unit: the task may start from here on
  return future<R>(task, reg);
}

}  // namespace detail

template <class T>
template <class G>
auto future<T>::then(G&& g) && {
  detail::async_state<T>* const pending = pending_task();
  if constexpr (std::is_void_v<T>) {
    static_assert(std::is_invocable_v<std::decay_t<G>&>,
                  "weft::future<void>::then(g): `g` must be callable with no arguments");
    return detail::start_after(
        [prev = std::move(*this), g = std::forward<G>(g)]() mutable {
          prev.get();
          return std::invoke(g);
        },
        pending);
  } else {
    static_assert(std::is_invocable_v<std::decay_t<G>&, T>,
                  "weft::future<T>::then(g): `g` must be callable with the future's value");
    return detail::start_after(
        [prev = std::move(*this), g = std::forward<G>(g)]() mutable {
          return std::invoke(g, prev.get());
        },
        pending);
  }
}

/// A future of a tuple of every future's value (`weft::unit` for a void one): a task started
/// once all are ready, by the thread that produced the last of them (at once if all are).
/// The first exception (in argument order) is rethrown by its `get()`. Consumes them.
template <class... T>
auto when_all(future<T>&&... futures) {
  // Read before the body takes the futures (an argument list has no order).
  const std::tuple<detail::async_state<T>*...> pending{futures.pending_task()...};
  auto body = [... fs = std::move(futures)]() mutable {
    auto value_of = [](auto& f) {
      using V = std::remove_cvref_t<decltype(f.get())>;
      if constexpr (std::is_void_v<V>) {
        f.get();
        return unit{};
      } else {
        return f.get();
      }
    };
    // Every input is ready when this runs (start_after), so none is still running and
    // borrowing what an earlier one's exception unwinds.
    return std::tuple<detail::returned_result_t<T>...>{value_of(fs)...};  // left to right
  };
  return std::apply(
      [&body](auto*... inputs) { return detail::start_after(std::move(body), inputs...); },
      pending);
}

}  // namespace weft
