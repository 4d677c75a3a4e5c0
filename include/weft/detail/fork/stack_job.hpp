// SPDX-License-Identifier: MIT
// Jobs that live in the frame of the code that forks them (no allocation per fork),
// and the result slot that carries a value or an exception back to that frame.
// Protocol: docs/protocols/join.md
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/latch.hpp"

namespace weft {
/// The result of a callable that returns void, where a value is needed (e.g. one side of
/// `weft::join`).
struct unit {
  friend constexpr bool operator==(unit, unit) noexcept { return true; }
};
}  // namespace weft

namespace weft::detail {

template <class R>
using returned_result_t = std::conditional_t<std::is_void_v<R>, unit, R>;

// Calls f and returns its result, with `unit` standing in for void.
template <class F>
returned_result_t<std::invoke_result_t<F&>> invoke_to_value(F& f) {
  if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
    std::invoke(f);
    return unit{};
  } else {
    return std::invoke(f);
  }
}

// A value or an exception, constructed only when the job runs elsewhere: the inline path
// of a join does not touch it. Trivially destructible on purpose (so the join fast path
// has no destructor check): whoever filled it calls take() or discard(). A slot built
// with `deferred` has no state until run() fills it; nothing may read it before.
template <class R>
class result_slot {
  using stored = std::conditional_t<std::is_reference_v<R>,
                                    std::reference_wrapper<std::remove_reference_t<R>>,
                                    returned_result_t<R>>;

 public:
  result_slot() noexcept : state_(state::empty) {}
  explicit result_slot(deferred_t) noexcept {}
  result_slot(const result_slot&) = delete;

  template <class F>
  void run(F& f) noexcept {
    try {
      if constexpr (std::is_void_v<R>) {
        std::invoke(f);
        ::new (static_cast<void*>(storage_)) stored{};
      } else {
        ::new (static_cast<void*>(storage_)) stored(std::invoke(f));
      }
      state_ = state::value;
    } catch (...) {
      ::new (static_cast<void*>(storage_)) std::exception_ptr(std::current_exception());
      state_ = state::error;
    }
  }
  bool failed() const noexcept { return state_ == state::error; }
  // Whether it holds a value or an exception (run() filled it, nothing took it since).
  bool filled() const noexcept { return state_ != state::empty; }
  // Moves the value out (or rethrows the exception) and leaves the slot empty.
  returned_result_t<R> take() {
    if (state_ == state::error) {
      std::exception_ptr e = std::move(error_ref());
      discard();
      std::rethrow_exception(std::move(e));
    }
    struct on_exit {
      result_slot* self;
      ~on_exit() { self->discard(); }
    } guard{this};
    if constexpr (std::is_reference_v<R>)
      return value_ref().get();
    else
      return std::move(value_ref());
  }
  // Takes the exception out, if any, leaving the slot empty.
  std::exception_ptr take_error() noexcept {
    std::exception_ptr e;
    if (state_ == state::error) e = std::move(error_ref());
    discard();
    return e;
  }
  void discard() noexcept {
    if (state_ == state::value) std::destroy_at(&value_ref());
    if (state_ == state::error) std::destroy_at(&error_ref());
    state_ = state::empty;
  }

 private:
  enum class state : unsigned char { empty, value, error };
  stored& value_ref() noexcept { return *std::launder(reinterpret_cast<stored*>(storage_)); }
  std::exception_ptr& error_ref() noexcept {
    return *std::launder(reinterpret_cast<std::exception_ptr*>(storage_));
  }

  static constexpr std::size_t storage_bytes =
      sizeof(stored) > sizeof(std::exception_ptr) ? sizeof(stored) : sizeof(std::exception_ptr);
  static constexpr std::size_t storage_align = alignof(stored) > alignof(std::exception_ptr)
                                                   ? alignof(stored)
                                                   : alignof(std::exception_ptr);
  alignas(storage_align) unsigned char storage_[storage_bytes];
  state state_;
};

// A job in the frame of the code that waits for it. Its result slot is filled exactly once,
// by whoever runs it (execute_fn, or the waiter itself), before anything reads it.
template <class F>
class stack_job : public waited_job {
 public:
  using result_type = std::invoke_result_t<F&>;

  // Shared from the start (run_in): waited on by `waiter`, a worker; nullptr: by a thread
  // outside every pool (futex).
  stack_job(F& f, worker* waiter) noexcept
      : waited_job(&execute_fn, waiter), fn_(f), result_(deferred) {}
  // A join's B, pushed privately: share_prepare() runs only if the owner publishes it.
  stack_job(F& f, deferred_t) noexcept
      : waited_job(&execute_fn, deferred), fn_(f), result_(deferred) {}

  job_latch& latch() noexcept { return done; }
  result_slot<result_type>& result() noexcept { return result_; }
  F& fn() noexcept { return fn_; }

 private:
  static void execute_fn(job_header* h) noexcept {
    auto* self = static_cast<stack_job*>(h);
    self->result_.run(self->fn_);
    self->done.set();  // last touch of *self
  }

  F& fn_;
  result_slot<result_type> result_;
};

}  // namespace weft::detail
