// SPDX-License-Identifier: MIT
// What every spawned task type shares (scope tasks, detached tasks, async tasks): its block,
// its push, and the owner's runs of its own deque. Protocol: docs/protocols/spawn.md
#pragma once

#include <cstdint>
#include <new>
#include <utility>

#include "weft/detail/config.hpp"
#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"
#include "weft/detail/sync/spawn_arena.hpp"

namespace weft::detail {

// The spawn arena's class for a job of type T, or no_class (too large or over-aligned).
template <class T>
inline constexpr std::uint8_t arena_class_of = spawn_arena::class_of(sizeof(T), alignof(T));

// A T (a spawned_job, or a fifo_task: anything with a `block_class`) built from `args` and
// its block's class: a block of w's spawn arena
// when w is a worker of the job's pool and T fits, else the heap. Exceptions: those of T's
// constructor and std::bad_alloc; nothing is left allocated then.
template <class T, class... Args>
T* make_spawned(worker* w, Args&&... args) {
  constexpr std::uint8_t block = arena_class_of<T>;
  if constexpr (block != spawn_arena::no_class) {
    if (w != nullptr) {
      void* memory = w->arena.allocate(block);
      try {
        return ::new (memory) T(std::forward<Args>(args)..., block);
      } catch (...) {
        spawn_arena::deallocate(memory, block, &w->arena);
        throw;
      }
    }
  }
  return new T(std::forward<Args>(args)..., spawned_job::heap_block);
}

// Destroys a job made by make_spawned and frees its block, on any thread (`w`: the calling
// thread's worker, or nullptr).
template <class T>
void free_spawned(T* job, worker* w) noexcept {
  const std::uint8_t block = job->block_class;
  if (block == spawned_job::heap_block) {
    delete job;
    return;
  }
  job->~T();
  spawn_arena::deallocate(job, block, w != nullptr ? &w->arena : nullptr);
}

// What spawn_into and spawn_detached call once the task is built and before any thread can
// run it: nothing for a plain spawn; a FIFO spawn queues its callable there (fifo_impl.hpp).
// Must not throw: the task is already built.
struct no_before_push {
  void operator()() const noexcept {}
};

// Pushes `job` on the deque of `w` (the calling thread's worker): run at once when the deque
// is full (as a join does), offered to idle threads otherwise. A full deque still offers its
// oldest private jobs to a hungry thread first: a loop that spawns past the deque's capacity
// runs its new tasks inline, and the ones already pushed are all the others can take.
// Returns whether the job was pushed (at the height before the call); false: it has run.
WEFT_INLINE bool push_spawned(worker& w, spawned_job* job) noexcept {
  if (!w.deque.push(spawned_handle(job))) [[unlikely]] {
    if (w.deque.has_private() && w.someone_is_hungry()) rt::share_spawned_work(w);
    job->execute(job);
    return false;
  }
  if (w.someone_is_hungry()) [[unlikely]] rt::share_spawned_work(w);
  return true;
}

// The calling thread's worker when it works for `reg`, else nullptr (outside every pool, or
// a worker of another pool).
inline worker* own_worker_of(const registry* reg) noexcept {
  worker* const w = current_worker;
  return w != nullptr && w->reg == reg ? w : nullptr;
}

// Starts a built job on pool `reg`: pushed on `own` (own_worker_of(reg)), or injected when
// that is nullptr. Returns whether it went onto own's deque (push_spawned).
inline bool push_or_inject(registry* reg, worker* own, spawned_job* job) noexcept {
  if (own == nullptr) {
    rt::inject(reg, job);
    return false;
  }
  return push_spawned(*own, job);
}

// S3: the owner's deque above a frame's floor holds only jobs pushed by the frame that ends
// now (its joins have returned, so no join's B is among them): the frame runs them with
// run_own_jobs_down_to (sched/worker.hpp), newest first.

// How far down the owner of `w` may run its own deque to reach `slot` (task_group::wait,
// future::wait): to `slot` when it is below the height, not below the innermost frame's
// floor (that frame's drain needs what lies above it), and only spawned jobs lie between
// (never a join's B, which only its joiner may run); otherwise the height (nothing to run).
inline std::uint32_t reachable_floor(const worker& w, std::uint32_t slot) noexcept {
  const std::uint32_t height = w.deque.size_for_owner();
  if (slot >= height || slot < w.frame_floor) return height;
  for (std::uint32_t i = slot; i < height; ++i)
    if (spawned_of(w.deque.item_at(i)) == nullptr) return height;
  return slot;
}

}  // namespace weft::detail
