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

// What a continuation task (then, when_all) is counted down by: one unit per input not yet
// ready when it was built, plus the builder's own, which it gives up once every input has
// its link (so that no input starts the task while the builder still reads the others).
// The unit that reaches zero starts the task: on the calling worker's deque when it works
// for the task's pool (the thread that just finished the last input, or the builder), else
// through the injector.
struct continuation_link {
  std::atomic<std::uint32_t> units_left;
  registry* reg;
  spawned_job* task;

  void input_ready() noexcept {
    // CLast: acq_rel, so the last unit's holder starts the task after every other unit's
    // writes (their inputs' results are published by FFinish on each input's own word).
    if (units_left.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    push_or_inject(reg, own_worker_of(reg), task);
  }
};

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
//   F4  instead of a latch, the word may hold a continuation's link, tagged (then,
//       when_all: the future was consumed, so nobody waits on it): registered once, from
//       `pending` (FWait); the runner counts the link down after its exchange (CLast).
//
// A continuation task exists on no deque until every input is ready: the input whose
// finish() counts its link to zero starts it (continuation_link::input_ready). So no thread
// ever runs it and then waits for an input whose task is suspended beneath it on its stack.
// Its spawner_/slot_ name the lowest input still queued on the builder's deque: the owner's
// wait runs its own deque down to there (the inputs, then the continuation they start).
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
    if (previous == pending_word) return;  // FFinish
    if ((previous & continuation_tag) != 0)
      reinterpret_cast<continuation_link*>(previous - continuation_tag)->input_ready();  // F4
    else
      reinterpret_cast<job_latch*>(previous)->set();
  }

 public:
  // The builder of a continuation (then, when_all), the future's owner: where the task was
  // queued, and, unless it finished first, `link` registered as its successor (F4). True:
  // the runner will count the link down.
  worker* spawner() const noexcept { return spawner_; }
  std::uint32_t slot() const noexcept { return slot_; }
  bool register_continuation(continuation_link& link) noexcept {
    std::uintptr_t expected = pending_word;
    return state_.compare_exchange_strong(
        expected, reinterpret_cast<std::uintptr_t>(&link) + continuation_tag,
        std::memory_order_release,    // FWait
        std::memory_order_acquire);  // FReady
  }

 private:
  static constexpr std::uintptr_t pending_word = 0;
  static constexpr std::uintptr_t ready_word = 1;  // never a latch's address (alignment)
  static constexpr std::uintptr_t continuation_tag = 2;  // nor a link's
  static_assert(alignof(job_latch) > continuation_tag &&
                alignof(continuation_link) > continuation_tag);

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

// What a task that starts when spawned (weft::async) keeps instead of a link.
struct no_link {};

// The task behind weft::async (Link: no_link), or behind then / when_all (Link:
// continuation_link, which starts it).
template <class F, class T, class Link = no_link>
class async_task final : public async_state<T> {
 public:
  // Spawns `f` on `reg`: onto the calling worker's deque when it works for `reg`, else
  // through the injector.
  template <class G>
  static async_task* start(registry* reg, G&& f) {
    worker* const own = own_worker_of(reg);
    const std::uint32_t slot = own != nullptr ? own->deque.size_for_owner() : 0;
    auto* task = make_spawned<async_task>(own, std::forward<G>(f), own, slot);
    push_or_inject(reg, own, task);
    return task;
  }

  // Builds `f` as a continuation of `inputs` inputs on `reg`, started by its link (F4):
  // `reach` is the builder's worker when an input is queued there, `slot` the lowest such
  // input's slot. The caller registers the link with each input, then gives up its unit.
  template <class G>
  static async_task* chain(registry* reg, G&& f, worker* reach, std::uint32_t slot,
                           std::uint32_t inputs) {
    static_assert(std::is_same_v<Link, continuation_link>);
    auto* task = make_spawned<async_task>(own_worker_of(reg), std::forward<G>(f), reach, slot);
    task->link_.units_left.store(inputs + 1, std::memory_order_relaxed);  // before FWait
    task->link_.reg = reg;
    task->link_.task = task;
    return task;
  }
  Link& link() noexcept { return link_; }

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
  [[no_unique_address]] Link link_;
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
