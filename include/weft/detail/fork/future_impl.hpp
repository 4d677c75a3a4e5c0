// SPDX-License-Identifier: MIT
// The task behind weft::async: a spawned job that holds the callable and the result, owned
// by its future. Protocol: docs/protocols/spawn.md#futures
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
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
// Invariants.
//   F1  `ready_` goes false -> true once, when the result slot is filled (by the runner,
//       under mutex_, FReady) or by the spawner that took the task back privately (no other
//       thread ever saw it).
//   F2  the future frees the task only after it saw ready_ (acquire) *and* took mutex_
//       once: the runner's last touch is its unlock.
//   F3  at most one thread waits (the future's owner): `waiter_` is written and read under
//       mutex_.
template <class T>
class async_state : public spawned_job {
 public:
  using value_type = T;

  bool ready() const noexcept { return ready_.load(std::memory_order_acquire); }  // FReady
  // The future's owner, after wait_in_worker: frees the task (F2 holds by then).
  void destroy() noexcept { destroy_fn_(this); }
  result_slot<T>& result() noexcept { return result_; }

  // The future's owner, outside the task's pool: blocks (a futex latch) until the task has
  // run. It does not enter the pool to help: a job that waits, run nested inside a worker
  // whose stack holds the very task it waits for, would never return.
  void wait_blocking() noexcept {
    if (ready()) return settle_with_runner();
    job_latch latch;  // no worker: a futex waiter
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (ready_.load(std::memory_order_relaxed)) return;
      waiter_ = &latch;
    }
    latch.wait_blocking();
    settle_with_runner();
  }

  // The future's owner, on a worker of the task's pool: returns once the result is there,
  // running the task itself if it is still on this worker's deque, else other work.
  void wait_in_worker(worker& w) noexcept {
    if (ready()) return settle_with_runner();
    if (&w == spawner_) {
      // Still on top and private: nobody else saw it; run it here, as a join runs its B.
      // (The slot may hold another job by now, if this one was stolen: compare first.)
      // A published one that nobody took comes back the same way (the pop's CAS); a stolen
      // one comes back empty and the thief runs it.
      if (w.deque.size_for_owner() == slot_ + 1 &&
          w.deque.item_at(slot_) == spawned_handle(this)) {
        if (w.deque.pop() != nullptr) {
          run_here_();
          ready_.store(true, std::memory_order_relaxed);
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
    if (ready()) return settle_with_runner();
    job_latch latch(&w);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (ready_.load(std::memory_order_relaxed)) return;
      waiter_ = &latch;
    }
    rt::wait_until(w, latch, w.deque.size_for_owner(), nullptr);
    settle_with_runner();
  }

 protected:
  using run_fn = void (*)(async_state*) noexcept;

  async_state(execute_fn run, run_fn run_inline, run_fn free_task, worker* spawner,
              std::uint32_t slot, std::uint8_t block) noexcept
      : spawned_job(run, nullptr, true, block), run_here_fn_(run_inline),
        destroy_fn_(free_task), spawner_(spawner), slot_(slot) {}

  // The runner (any worker, through execute): publishes the result (F1), wakes the waiter.
  void finish() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    ready_.store(true, std::memory_order_release);  // FReady
    if (waiter_ != nullptr) waiter_->set();
  }

 private:
  void run_here_() noexcept { run_here_fn_(this); }
  // F2: the runner may still be inside finish(); its unlock is its last touch.
  void settle_with_runner() noexcept { std::lock_guard<std::mutex> lock(mutex_); }

  result_slot<T> result_;
  std::atomic<bool> ready_{false};
  std::mutex mutex_;
  job_latch* waiter_ = nullptr;  // guarded by mutex_
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

// weft::async past its gate (ADR 0008): runs nothing itself. No task when the worker keeps
// its bound of private forks and no thread is hungry (or its public part is not empty);
// otherwise starts one on the current pool. F is what async deduced, PF its fork_arg_t: a
// small trivially copyable callable comes in registers and the caller's `f` stays intact
// for the no-task answer.
template <class T, class F>
[[gnu::noinline]] started_async<T> async_slow(fork_arg_t<F> f) {
  if (worker* const w = current_worker; w != nullptr && w->deque.private_full() &&
                                        (w->try_open_gate() || !w->deque.public_is_empty()))
    return {nullptr, nullptr};
  registry* const reg = current_registry();
  return {async_task<std::decay_t<F>, T>::start(reg, static_cast<F&&>(f)), reg};
}

}  // namespace weft::detail
