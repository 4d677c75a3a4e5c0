// SPDX-License-Identifier: MIT
// weft::async and weft::future: a task whose result is collected later; then, when_all.
// Design: docs/guide.md#tasks   Protocol: docs/protocols/spawn.md#futures
#pragma once

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

  /// A future of `g(value)` (or `g()` for a void future), started now as another task that
  /// waits for this one (helping the pool meanwhile). Consumes this future.
  template <class G>
  auto then(G&& g) &&;

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

template <class T>
template <class G>
auto future<T>::then(G&& g) && {
  if constexpr (std::is_void_v<T>) {
    static_assert(std::is_invocable_v<std::decay_t<G>&>,
                  "weft::future<void>::then(g): `g` must be callable with no arguments");
    return weft::async([prev = std::move(*this), g = std::forward<G>(g)]() mutable {
      prev.get();
      return std::invoke(g);
    });
  } else {
    static_assert(std::is_invocable_v<std::decay_t<G>&, T>,
                  "weft::future<T>::then(g): `g` must be callable with the future's value");
    return weft::async([prev = std::move(*this), g = std::forward<G>(g)]() mutable {
      return std::invoke(g, prev.get());
    });
  }
}

/// A future of a tuple of every future's value (`weft::unit` for a void one), ready when all
/// are; the first exception (in argument order) is rethrown by its `get()`. Consumes them.
template <class... T>
auto when_all(future<T>&&... futures) {
  return weft::async([... fs = std::move(futures)]() mutable {
    auto value_of = [](auto& f) {
      using V = std::remove_cvref_t<decltype(f.get())>;
      if constexpr (std::is_void_v<V>) {
        f.get();
        return unit{};
      } else {
        return f.get();
      }
    };
    // Waits for all before rethrowing: a later future's task may borrow what an earlier
    // one's exception would unwind.
    (fs.wait(), ...);
    return std::tuple<detail::returned_result_t<T>...>{value_of(fs)...};  // left to right
  });
}

}  // namespace weft
