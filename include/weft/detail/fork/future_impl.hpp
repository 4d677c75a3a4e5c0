// SPDX-License-Identifier: MIT
// The task behind weft::async: a spawned job that holds the callable and the result, owned
// by its future. Protocol: docs/protocols/spawn.md#futures
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

#include "weft/detail/config.hpp"
#include "weft/detail/fork/join_impl.hpp"
#include "weft/detail/fork/scope_impl.hpp"
#include "weft/detail/fork/spawned.hpp"
#include "weft/detail/fork/stack_job.hpp"
#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/latch.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft::detail {

// The part of an async task its future sees, whatever the callable.
//
// `state_` is one word: `pending`, `ready`, or the address of the waiter's job_latch.
//
// Invariants.
//   F1  `state_` becomes `ready` once, when the result slot is filled: by the runner's
//       exchange (FFinish), or by the spawner that took the task back privately (no other
//       thread ever saw it).
//   F2  the runner's exchange is its last touch of the task: it keeps the latch address it
//       read in a register, so the future may free the task as soon as it sees `ready`.
//   F3  at most one thread waits (the future's owner), and it registers its latch at most
//       once, from `pending` (FWait); the runner sets the latch it takes out of the word.
//       The latch's own protocol (latch.md) keeps the waiter's frame alive until set()
//       returns.
template <class T>
class async_state : public spawned_job {
 public:
  using value_type = T;

  bool ready() const noexcept {
    return state_.load(std::memory_order_acquire) == ready_word;  // FReady
  }
  // The future's owner, after wait_in_worker: frees the task (F2 holds by then), with the
  // value or exception get() did not take (the slot is trivially destructible).
  void destroy() noexcept {
    result_.discard();
    destroy_fn_(this);
  }
  result_slot<T>& result() noexcept { return result_; }

  // The future's owner, outside the task's pool: blocks (a futex latch) until the task has
  // run. It does not enter the pool to help: a job that waits, run nested inside a worker
  // whose stack holds the very task it waits for, would never return.
  void wait_blocking() noexcept {
    if (ready()) return;
    job_latch latch;  // no worker: a futex waiter
    if (register_waiter(latch)) latch.wait_blocking();
  }

  // The future's owner, on a worker of the task's pool: returns once the result is there,
  // running the task itself if it is still on this worker's deque, else other work.
  void wait_in_worker(worker& w) noexcept {
    if (ready()) return;
    if (&w == spawner_) {
      // Still on top and private: nobody else saw it; run it here, as a join runs its B.
      // (The slot may hold another job by now, if this one was stolen: compare first.)
      // A published one that nobody took comes back the same way (the pop's CAS); a stolen
      // one comes back empty and the thief runs it.
      if (w.deque.size_for_owner() == slot_ + 1 &&
          w.deque.item_at(slot_) == spawned_handle(this)) {
        if (w.deque.pop() != nullptr) {
          // Its slot is free now, but the fork it stands for is still pending: the
          // recursion below counts it as held, as a join's B counts while A runs.
          ++w.asyncs_taken_back;
          run_here_();
          --w.asyncs_taken_back;
          state_.store(ready_word, std::memory_order_relaxed);  // F1: private
          return;
        }
      }
      // Run our own deque down to the task when it can be reached; it may be among what
      // lies above it. Otherwise let the other threads have what this one cannot run.
      const std::uint32_t floor = reachable_floor(w, slot_);
      if (floor == slot_)
        run_own_jobs_down_to(w, floor);
      else if (w.deque.has_private())
        rt::share_all_work(w);
    }
    if (ready()) return;
    job_latch latch(&w);
    if (register_waiter(latch)) rt::wait_until(w, latch, w.deque.size_for_owner(), nullptr);
  }

 protected:
  using run_fn = void (*)(async_state*) noexcept;

  async_state(execute_fn run, run_fn run_inline, run_fn free_task, worker* spawner,
              std::uint32_t slot, std::uint8_t block) noexcept
      : spawned_job(run, nullptr, true, block), run_here_fn_(run_inline),
        destroy_fn_(free_task), spawner_(spawner), slot_(slot) {}

  // The runner (any worker, through execute): publishes the result (F1) and wakes the
  // waiter it finds; the task is not touched after the exchange (F2).
  void finish() noexcept {
    const std::uintptr_t previous = state_.exchange(ready_word, std::memory_order_acq_rel);
    if (previous != pending_word) reinterpret_cast<job_latch*>(previous)->set();  // FFinish
  }

 private:
  static constexpr std::uintptr_t pending_word = 0;
  static constexpr std::uintptr_t ready_word = 1;  // never a latch's address (alignment)
  static_assert(alignof(job_latch) > ready_word);

  void run_here_() noexcept { run_here_fn_(this); }
  // F3: publishes `latch` unless the task finished first. True: the runner will set it.
  bool register_waiter(job_latch& latch) noexcept {
    std::uintptr_t expected = pending_word;
    return state_.compare_exchange_strong(expected, reinterpret_cast<std::uintptr_t>(&latch),
                                          std::memory_order_release,    // FWait
                                          std::memory_order_acquire);  // FReady
  }

  result_slot<T> result_;
  std::atomic<std::uintptr_t> state_{pending_word};
  run_fn run_here_fn_;
  run_fn destroy_fn_;
  worker* spawner_;       // the worker whose deque it was pushed on, or nullptr (injected)
  std::uint32_t slot_;    // its slot there
};

template <class F, class T>
class async_task final : public async_state<T> {
 public:
  // Spawns `f` on `reg`: onto the calling worker's deque when it works for `reg`, else
  // through the injector.
  template <class G>
  static async_task* start(registry* reg, G&& f) {
    worker* const w = current_worker;
    worker* const own = w != nullptr && w->reg == reg ? w : nullptr;
    const std::uint32_t slot = own != nullptr ? own->deque.size_for_owner() : 0;
    auto* task = make_spawned<async_task>(own, std::forward<G>(f), own, slot);
    if (own == nullptr)
      rt::inject(reg, task);
    else
      push_spawned(*own, task);
    return task;
  }

  template <class G>
  async_task(G&& f, worker* spawner, std::uint32_t slot, std::uint8_t block)
      : async_state<T>(&execute_fn, &run_here, &destroy_task, spawner, slot, block),
        fn_(std::forward<G>(f)) {}

 private:
  static void destroy_task(async_state<T>* base) noexcept {
    free_spawned(static_cast<async_task*>(base), current_worker);
  }

  static void run_here(async_state<T>* base) noexcept {
    auto* self = static_cast<async_task*>(base);
    self->result().run(self->fn_);
  }

  static void execute_fn(job_header* h) noexcept {
    auto* self = static_cast<async_task*>(h);
    self->result().run(self->fn_);
    self->finish();  // last touch: the future may free the task once it sees ready
  }

  F fn_;
};

// What async's out-of-line path returns: the started task and its pool, or no task (the
// caller runs `f` at once, as the join's unrecorded path does).
template <class T>
struct started_async {
  async_state<T>* state;
  registry* reg;
};

// Whether weft::async, on worker `w` whose private region is full, runs its callable at once
// (as an unrecorded join does): when no thread is hungry, or when its public part is not
// empty. It opens the gate on every eighth such start only: the async shape `a =
// async(big); small(); a.get()` takes each task back from a shallow slot, which closes the
// gate (every owner pop does), so opening it at each start would pay a fence per task that
// a subtree of a few forks never earns back. The starts between two openings read the
// hunger (relaxed) themselves, so a hungry thread is still seen at the next one.
inline bool async_runs_unrecorded(worker& w) noexcept {
  if (!w.someone_is_hungry() && (++w.unrecorded_asyncs & 7) != 0) return true;
  return w.try_open_gate() || !w.deque.public_is_empty();
}

// weft::async past its gate (ADR 0008): runs nothing itself. No task when the worker keeps
// its bound of private forks and no thread is hungry (or its public part is not empty);
// otherwise starts one on the current pool. F is what async deduced, PF its fork_arg_t: a
// small trivially copyable callable comes in registers and the caller's `f` stays intact
// for the no-task answer.
template <class T, class F>
[[gnu::noinline]] started_async<T> async_slow(fork_arg_t<F> f) {
  if (worker* const w = current_worker;
      w != nullptr && w->deque.private_full(w->asyncs_taken_back) && async_runs_unrecorded(*w))
    return {nullptr, nullptr};
  registry* const reg = current_registry();
  return {async_task<std::decay_t<F>, T>::start(reg, static_cast<F&&>(f)), reg};
}

}  // namespace weft::detail
