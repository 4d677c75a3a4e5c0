// SPDX-License-Identifier: MIT
// A job is a one-word handle (job_header*) to a frame that knows how to run itself.
// Protocol: docs/protocols/join.md#state-and-layout
#pragma once

#include <cstdint>

#include "weft/detail/config.hpp"
#include "weft/detail/sched/latch.hpp"
#include "weft/detail/sync/atomic.hpp"

namespace weft::detail {

struct worker;

// `execute` is always valid. `done` and `thief` are read only by other threads, so a job
// that may stay private (a join's B) is built with `deferred` and leaves them unwritten:
// its owner calls share_prepare() just before it publishes the job (deque Q3 releases
// those plain stores). A job that is shared from the start (injected, or a scope task)
// is built with its waiter and has them from construction.
struct job_header {
  static constexpr std::uint32_t no_thief = ~std::uint32_t{0};
  using execute_fn = void (*)(job_header*) noexcept;

  job_header(execute_fn fn, worker* waiter) noexcept
      : execute(fn), done(waiter), thief(no_thief) {}
  job_header(execute_fn fn, deferred_t) noexcept
      : execute(fn), done(deferred), thief(deferred) {}

  // Owner only, while the job is still private: `owner` becomes the waiter of `done`.
  void share_prepare(worker& owner) noexcept {
    done.reset(&owner);
    thief.construct(no_thief);
  }

  // Runs the job and signals its completion; after it returns the job may be gone.
  execute_fn execute;
  // Set when a job someone waits for finished (stack jobs). Scope tasks signal their scope
  // instead and leave it alone.
  job_latch done;
  // Index of the worker that stole this job, for the joiner's leapfrogging; a hint only.
  late_atomic<std::uint32_t> thief;
};

}  // namespace weft::detail
