// SPDX-License-Identifier: MIT
// weft::broadcast: one call of f(index) on every thread of the current pool.
// Design: docs/guide.md#tasks   Protocol: docs/protocols/spawn.md#broadcast
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/detail/fork/join_impl.hpp"
#include "weft/detail/fork/stack_job.hpp"
#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/latch.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"
#include "weft/pool.hpp"

namespace weft {
namespace detail {

// What the calls of one broadcast share: the callable, the result slots, the count of calls
// still running elsewhere and the broadcaster's latch.
template <class F, class R>
struct broadcast_state {
  F& fn;
  std::unique_ptr<result_slot<R>[]> results;
  std::atomic<std::size_t> remaining;
  job_latch latch;
};

// The call for one worker, in that worker's mailbox. Its last touch is the count (the
// broadcaster may return right after the last one).
template <class F, class R>
struct broadcast_job : mailed_job {
  broadcast_job() noexcept : mailed_job(&execute_fn) {}
  broadcast_state<F, R>* state = nullptr;
  std::size_t index = 0;

  static void execute_fn(job_header* h) noexcept {
    auto* self = static_cast<broadcast_job*>(h);
    broadcast_state<F, R>& s = *self->state;
    const std::size_t index = self->index;
    auto call = [&s, index]() -> R { return std::invoke(s.fn, index); };
    s.results[index].run(call);
    if (s.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) s.latch.set();  // BDone
  }
};

template <class F>
auto broadcast_in_worker(worker& w, F& f) {
  using R = std::invoke_result_t<F&, std::size_t>;
  const std::size_t n = rt::num_threads(w.reg);
  broadcast_state<F, R> state{f, std::make_unique<result_slot<R>[]>(n), {n - 1}, job_latch(&w)};
  auto jobs = std::make_unique<broadcast_job<F, R>[]>(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i == w.index) continue;
    jobs[i].state = &state;
    jobs[i].index = i;
    rt::post_mail(w.reg, i, &jobs[i]);
  }
  auto own = [&f, &w]() -> R { return std::invoke(f, static_cast<std::size_t>(w.index)); };
  state.results[w.index].run(own);
  if (n > 1 && !state.latch.probe())
    rt::wait_until(w, state.latch, w.deque.size_for_owner(), nullptr);
  // Every call finished: rethrow the exception of the lowest index that threw.
  for (std::size_t i = 0; i < n; ++i) {
    if (!state.results[i].failed()) continue;
    std::exception_ptr error = state.results[i].take_error();
    for (std::size_t k = 0; k < n; ++k) state.results[k].discard();
    std::rethrow_exception(std::move(error));
  }
  if constexpr (std::is_void_v<R>) {
    for (std::size_t k = 0; k < n; ++k) state.results[k].discard();
  } else {
    std::vector<R> out;
    out.reserve(n);
    for (std::size_t k = 0; k < n; ++k) out.push_back(state.results[k].take());
    return out;
  }
}

}  // namespace detail

/// Calls `f(index)` once on every thread of the current pool (the calling worker's, or the
/// global pool), `index` being that thread's `weft::thread_index()`, and returns when every
/// call has returned: a `std::vector` of the results by index (nothing when `f` returns void).
/// The calling thread makes its own call; every other thread makes its call the next time it
/// looks for work (a sleeping thread is woken), so a thread busy in a long task delays the
/// broadcast until that task ends. Exceptions: every call runs; then the exception of the
/// lowest index that threw is rethrown. Allocation: one job and one result slot per thread.
/// Preconditions: `f` is callable as `f(std::size_t)` (checked at compile time) and safe to
/// call from every thread at once. Called from outside every pool, it enters the global
/// pool as `install` does.
template <class F>
auto broadcast(F&& f) {
  static_assert(std::is_invocable_v<F&, std::size_t>,
                "weft::broadcast(f): `f` must be callable as f(std::size_t index)");
  if (detail::worker* w = detail::current_worker) return detail::broadcast_in_worker(*w, f);
  auto whole = [&f] { return detail::broadcast_in_worker(*detail::current_worker, f); };
  return detail::run_in(detail::rt::global_registry(), whole);
}

/// As `weft::broadcast`, on `pool` (from outside it, the calling thread enters it as
/// `install` does).
template <class F>
auto broadcast(thread_pool& pool, F&& f) {
  static_assert(std::is_invocable_v<F&, std::size_t>,
                "weft::broadcast(pool, f): `f` must be callable as f(std::size_t index)");
  return pool.install([&f] { return detail::broadcast_in_worker(*detail::current_worker, f); });
}

}  // namespace weft
