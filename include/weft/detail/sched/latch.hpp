// SPDX-License-Identifier: MIT
// job_latch: a core_latch plus who to wake when it is set (a worker, or a futex waiter).
// Protocol: docs/protocols/latch.md
#pragma once

#include <cstdint>

#include "weft/detail/config.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sync/core_latch.hpp"
#include "weft/detail/sync/futex.hpp"

namespace weft::detail {

class job_latch {
 public:
  // Waited on by `waiter`, a worker (it sleeps in its registry's sleep module).
  explicit job_latch(worker* waiter) noexcept : waiter_(waiter) {}
  // Waited on by a thread outside every pool: it blocks on the latch word itself.
  job_latch() noexcept : waiter_(nullptr) {}
  // Not started: reset() names the waiter and starts the latch UNSET, before any other
  // thread can reach it (core_latch: deferred start).
  explicit job_latch(deferred_t) noexcept : core_(deferred) {}
  job_latch(const job_latch&) = delete;
  job_latch& operator=(const job_latch&) = delete;

  void reset(worker* waiter) noexcept {
    waiter_ = waiter;
    core_.reset();
  }

  bool probe() const noexcept { return core_.probe(); }

  void set() noexcept {
    // Read everything first: once the state is `set` the waiter may free this frame.
    worker* const waiter = waiter_;
    std::atomic<std::uint32_t>* const word = &core_.word();
    if (core_.set()) {
      if (waiter != nullptr)
        rt::wake_worker(*waiter);
      else
        futex_wake(*word, 1);
    }
  }

  core_latch& core() noexcept { return core_; }
  bool is_futex_latch() const noexcept { return waiter_ == nullptr; }

  // Blocking wait for threads outside every pool (futex latch only).
  void wait_blocking() noexcept {
    for (int spin = 0; spin < 256; ++spin) {
      if (core_.probe()) return;
    }
    if (core_.get_sleepy() && core_.fall_asleep()) {
      while (!core_.probe()) futex_wait(core_.word(), core_latch::sleeping);
    }
  }

 private:
  core_latch core_;
  worker* waiter_;
};

}  // namespace weft::detail
