// SPDX-License-Identifier: MIT
// A job is a one-word handle (job_header*) to a frame that knows how to run itself.
// Protocol: docs/protocols/join.md#state-and-layout
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "weft/detail/config.hpp"
#include "weft/detail/sched/latch.hpp"
#include "weft/detail/sync/atomic.hpp"

namespace weft::detail {

struct worker;

// What every job has: how to run it, and the thief hint. `thief` is read only by other
// threads, so a job that may stay private (a join's B) is built with `deferred` and leaves
// it unwritten: its owner calls share_prepare() just before it publishes the job (deque Q3
// releases those plain stores). A job that is shared from the start (injected, a spawned
// task, a mailed job) has it from construction. The header is 12 bytes and 8-aligned: a
// derived job may place up to 4 bytes of its own in its tail padding (spawned_job does).
struct job_header {
  static constexpr std::uint32_t no_thief = ~std::uint32_t{0};
  using execute_fn = void (*)(job_header*) noexcept;

  explicit job_header(execute_fn fn) noexcept : execute(fn), thief(no_thief) {}
  job_header(execute_fn fn, deferred_t) noexcept : execute(fn), thief(deferred) {}

  // Runs the job and signals its completion; after it returns the job may be gone.
  execute_fn execute;
  // Index of the worker that stole this job, for the joiner's leapfrogging; a hint only.
  late_atomic<std::uint32_t> thief;
};

// A job that someone waits for by name (a join's B, run_in's job): `done` is set when it
// has run. Every untagged deque item is one (a spawned job's handle is tagged).
struct waited_job : job_header {
  waited_job(execute_fn fn, worker* waiter) noexcept : job_header(fn), done(waiter) {}
  waited_job(execute_fn fn, deferred_t) noexcept : job_header(fn, deferred), done(deferred) {}

  // Owner only, while the job is still private: `owner` becomes the waiter of `done`.
  void share_prepare(worker& owner) noexcept {
    done.reset(&owner);
    thief.construct(no_thief);
  }

  job_latch done;
};

// A job spawned into a group (a weft::scope) rather than forked by a join: nobody waits
// for it by name; its group counts it. It lives in a spawn arena block (or on the heap) and
// travels on deques as a tagged handle (spawned_handle), so that publishing can tell it
// from a join's B and count it then. Protocol: docs/protocols/spawn.md
//
// `counted` says whether the job is included in `*pending`, its group's count of jobs
// other threads may run: a job pushed privately by a thread already working for its group
// is not (lazy counting, S1 in detail/fork/scope_impl.hpp); publish counts it (SpawnCount,
// registry.cpp share_work) before any thief can see it. Plain fields: written while the job
// is private, published by the deque's Q3.
struct spawned_job : job_header {
  static constexpr std::uint8_t heap_block = 0xFF;

  spawned_job(execute_fn fn, std::atomic<std::size_t>* group_pending, bool is_counted,
              std::uint8_t block) noexcept
      : job_header(fn, deferred), counted(is_counted), block_class(block), pending(group_pending) {}

  // Owner only, while the job is private: it becomes public. Returns whether the caller must
  // count it in *pending (it was not counted yet).
  bool share_prepare() noexcept {
    thief.construct(no_thief);
    if (counted) return false;
    counted = true;
    return true;
  }

  // These two sit in job_header's tail padding: with a callable of up to 40 bytes a scope's
  // task fits one 64-byte block (one cache line).
  bool counted;
  // The spawn arena's size class of the block holding the job, or heap_block.
  std::uint8_t block_class;
  std::atomic<std::size_t>* pending;
};

// A job addressed to one worker (weft::broadcast): it waits in that worker's mailbox, an
// intrusive lock-free stack, until the worker looks for work. Protocol:
// docs/protocols/spawn.md#broadcast
struct mailed_job : job_header {
  explicit mailed_job(execute_fn fn) noexcept : job_header(fn) {}
  mailed_job* next_mail = nullptr;
};

// Deque items are job_header pointers; a spawned job's carries the low bit (jobs are at
// least 8-aligned), so that share_work counts it when it publishes. Whoever takes an item
// off a deque runs job_of(item).
inline void* spawned_handle(spawned_job* job) noexcept {
  return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(static_cast<job_header*>(job)) |
                                 std::uintptr_t{1});
}
inline job_header* job_of(void* item) noexcept {
  return reinterpret_cast<job_header*>(reinterpret_cast<std::uintptr_t>(item) &
                                       ~std::uintptr_t{1});
}
// The spawned job behind `item`, or nullptr if it is a join's job.
inline spawned_job* spawned_of(void* item) noexcept {
  const auto bits = reinterpret_cast<std::uintptr_t>(item);
  if ((bits & 1) == 0) return nullptr;
  return static_cast<spawned_job*>(reinterpret_cast<job_header*>(bits & ~std::uintptr_t{1}));
}

}  // namespace weft::detail
