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
#include "weft/detail/fork/scope_impl.hpp"
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
      // Run our own deque down to the task when only spawned jobs lie above it (never a
      // join's B, never below the innermost frame's floor); it may be among them.
      const std::uint32_t height = w.deque.size_for_owner();
      bool reachable = slot_ < height && slot_ >= w.frame_floor;
      for (std::uint32_t i = slot_; reachable && i < height; ++i)
        reachable = spawned_of(w.deque.item_at(i)) != nullptr;
      if (reachable) run_own_jobs_down_to(w, slot_);
      else if (w.deque.has_private()) rt::share_all_work(w);
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
    async_task* task = nullptr;
    constexpr std::uint8_t block = spawn_arena::class_of(sizeof(async_task), alignof(async_task));
    if constexpr (block != spawn_arena::no_class) {
      if (own != nullptr) {
        void* memory = own->arena.allocate(block);
        try {
          task = ::new (memory) async_task(std::forward<G>(f), own, slot, block);
        } catch (...) {
          spawn_arena::deallocate(memory, block, &own->arena);
          throw;
        }
      }
    }
    if (task == nullptr) task = new async_task(std::forward<G>(f), own, slot, spawned_job::heap_block);
    if (own == nullptr) {
      rt::inject(reg, task);
    } else if (!own->deque.push(spawned_handle(task))) [[unlikely]] {
      task->execute(task);
    } else if (own->someone_is_hungry()) [[unlikely]] {
      rt::share_spawned_work(*own);
    }
    return task;
  }

 private:
  template <class G>
  async_task(G&& f, worker* spawner, std::uint32_t slot, std::uint8_t block)
      : async_state<T>(&execute_fn, &run_here, &destroy_task, spawner, slot, block),
        fn_(std::forward<G>(f)) {}

  static void destroy_task(async_state<T>* base) noexcept {
    auto* self = static_cast<async_task*>(base);
    const std::uint8_t block = self->block_class;
    if (block == spawned_job::heap_block) {
      delete self;
      return;
    }
    self->~async_task();
    worker* const w = current_worker;
    spawn_arena::deallocate(self, block, w != nullptr ? &w->arena : nullptr);
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

}  // namespace weft::detail
