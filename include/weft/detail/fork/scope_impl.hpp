// SPDX-License-Identifier: MIT
// The state behind weft::scope: a counting latch, the first exception, heap task jobs.
// Protocol: docs/protocols/join.md#scope
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <utility>

#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/latch.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft::detail {

// `pending` counts the scope body plus every task not finished yet; the one that brings it
// to zero sets the latch the scope's owner waits on (acq_rel: every task's writes are
// visible to the owner after the wait). The first exception is kept, later ones dropped.
class scope_state {
 public:
  scope_state(registry* reg, worker* owner) noexcept : reg_(reg), latch_(owner) {}

  registry* reg() const noexcept { return reg_; }
  job_latch& latch() noexcept { return latch_; }

  void add_task() noexcept { pending_.fetch_add(1, std::memory_order_relaxed); }
  void task_done() noexcept {
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) latch_.set();
  }
  void record(std::exception_ptr e) noexcept {
    if (!has_error_.exchange(true, std::memory_order_acq_rel)) error_ = std::move(e);
  }
  bool failed() const noexcept { return has_error_.load(std::memory_order_acquire); }
  void rethrow_if_failed() const {
    if (has_error_.load(std::memory_order_acquire)) std::rethrow_exception(error_);
  }

 private:
  std::atomic<std::size_t> pending_{1};
  std::atomic<bool> has_error_{false};
  std::exception_ptr error_;
  registry* reg_;
  job_latch latch_;
};

template <class F, class Scope>
class heap_task : public job_header {
 public:
  heap_task(F&& f, Scope& s) : job_header(&execute_fn, nullptr), fn_(std::move(f)), scope_(s) {}

 private:
  static void execute_fn(job_header* h) noexcept {
    auto* self = static_cast<heap_task*>(h);
    scope_state& state = self->scope_.state();
    try {
      if constexpr (std::is_invocable_v<F&, Scope&>)
        std::invoke(self->fn_, self->scope_);
      else
        std::invoke(self->fn_);
    } catch (...) {
      state.record(std::current_exception());
    }
    delete self;
    state.task_done();  // last touch: the scope may return right after
  }

  F fn_;
  Scope& scope_;
};

}  // namespace weft::detail
