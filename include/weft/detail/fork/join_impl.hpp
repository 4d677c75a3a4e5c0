// SPDX-License-Identifier: MIT
// The life of a join on a worker, and entering a pool from outside it.
// Protocol: docs/protocols/join.md   Design: docs/design.md#the-life-of-a-join
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <type_traits>
#include <utility>

#include "weft/detail/config.hpp"
#include "weft/detail/fork/stack_job.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/seat_bias.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft::detail {

template <class A, class B>
using join_result_t =
    std::conditional_t<std::is_void_v<std::invoke_result_t<A&>> &&
                           std::is_void_v<std::invoke_result_t<B&>>,
                       void,
                       std::pair<returned_result_t<std::invoke_result_t<A&>>,
                                 returned_result_t<std::invoke_result_t<B&>>>>;

template <class A, class B, class RA, class RB>
join_result_t<A, B> make_join_result(RA&& ra, RB&& rb) {
  if constexpr (!std::is_void_v<join_result_t<A, B>>)
    return join_result_t<A, B>(std::forward<RA>(ra), std::forward<RB>(rb));
}

// B did not come back private: take back what sits above it (tasks that `a` spawned into
// an enclosing scope run here), then run B inline if we got it, else help until its thief
// finishes. Leaves the result (or exception) of B in the job.
template <class B>
WEFT_COLD void settle_b_cold(worker& w, stack_job<B>& job_b, std::uint32_t slot) {
  bool have_b = false;
  while (w.deque.size_for_owner() > slot) {
    void* const item = w.deque.pop();
    if (item == nullptr) continue;
    job_header* const top = job_of(item);
    if (top == &job_b)
      have_b = true;
    else
      top->execute(top);
  }
  if (have_b)
    job_b.result().run(job_b.fn());
  else if (!job_b.latch().probe())
    rt::wait_until(w, job_b.latch(), slot, &job_b);
}

// `a` threw: B may borrow the same frame, so it must finish before the exception leaves.
template <class B>
WEFT_COLD void finish_b_after_throw(worker& w, stack_job<B>& job_b, std::uint32_t slot) noexcept {
  if (w.deque.pop_if_private(slot))
    job_b.result().run(job_b.fn());
  else
    settle_b_cold(w, job_b, slot);
  job_b.result().discard();  // the exception of `a` wins
}

template <class A, class B>
join_result_t<A, B> join_sequential(A& a, B& b) {
  result_slot<std::invoke_result_t<A&>> ra;
  result_slot<std::invoke_result_t<B&>> rb;
  ra.run(a);
  rb.run(b);
  if (ra.failed()) {
    rb.discard();
    ra.take();
  }
  if (rb.failed()) {
    ra.discard();
    rb.take();
  }
  if constexpr (std::is_void_v<join_result_t<A, B>>) {
    ra.discard();
    rb.discard();
  } else {
    decltype(auto) a_value = ra.take();  // sequenced: neither take() can throw here
    return make_join_result<A, B>(std::forward<decltype(a_value)>(a_value), rb.take());
  }
}

// `a` threw on the unrecorded path: `b` still runs (join's contract: both sides finish),
// and its own exception, if any, loses to the one of `a`.
template <class F>
WEFT_COLD void run_discarding(F& f) noexcept {
  try {
    static_cast<void>(invoke_to_value(f));
  } catch (...) {
  }
}

// The unrecorded path (ADR 0006): the worker already keeps its bound of private forks and no
// thread is idle, so B is not pushed at all: `a` then `b`, as plain calls.
template <class A, class B>
WEFT_INLINE join_result_t<A, B> join_unrecorded(A& a, B& b) {
  using value_a = returned_result_t<std::invoke_result_t<A&>>;
  value_a ra = [&]() -> value_a {
    try {
      return invoke_to_value(a);
    } catch (...) {
      run_discarding(b);
      throw;
    }
  }();
  return make_join_result<A, B>(std::forward<value_a>(ra), invoke_to_value(b));
}

// The recorded path: push B (a frame-resident job), run A, then take B back or help until
// its thief is done. When B is not stolen it touches no shared memory but one relaxed load,
// and writes only B's `execute` and callable: the fields thieves need are written by
// share_work if it publishes B (job_header::share_prepare). Part of join_slow, out of line,
// so that the unrecorded path keeps the frame of two plain calls.
// Share: publish B at once, hungry thread or not (join_shared).
template <bool Share = false, class A, class B>
WEFT_INLINE join_result_t<A, B> join_recorded(worker& w, A& a, B& b) {
  stack_job<B> job_b(b, deferred);
  const std::uint32_t slot = w.deque.size_for_owner();
  if (!w.deque.push(&job_b)) [[unlikely]]  // deque full: no fork, same semantics
    return join_sequential(a, b);
  if (Share || w.someone_is_hungry()) [[unlikely]] rt::share_work(w);

  using value_a = returned_result_t<std::invoke_result_t<A&>>;
  value_a ra = [&]() -> value_a {
    try {
      return invoke_to_value(a);
    } catch (...) {
      finish_b_after_throw(w, job_b, slot);
      throw;
    }
  }();

  if (w.deque.pop_if_private(slot)) [[likely]]
    return make_join_result<A, B>(std::forward<value_a>(ra), invoke_to_value(b));
  settle_b_cold(w, job_b, slot);
  return make_join_result<A, B>(std::forward<value_a>(ra), job_b.result().take());
}

// How join's out-of-line paths (recorded, from outside) receive a callable; F is the type
// join's forwarding reference deduced. A temporary that is trivially copyable, copy
// constructible and fits in two registers comes by value: then no address of the caller's
// frame leaves it on any path, and the compiler may treat the unrecorded path as the two
// plain calls it is. For a recursion such as `auto [x, y] = join(f(n - 1), f(n - 2));
// return x + y;` that is what lets it keep one call per level and loop on the other, as it
// does for sequential code (ADR 0007). An lvalue (the caller may look at it after the
// join), a move-only, larger or non-trivial callable comes by reference.
template <class F, bool = !std::is_reference_v<F> && std::is_trivially_copyable_v<F> &&
                          std::is_copy_constructible_v<F>>
inline constexpr bool fork_by_value_v = false;  // sizeof only where F is an object type
template <class F>
inline constexpr bool fork_by_value_v<F, true> = sizeof(F) <= 2 * sizeof(void*);

template <class F>
using fork_arg_t = std::conditional_t<fork_by_value_v<F>, F, std::remove_reference_t<F>&>;

template <class PA, class PB>
WEFT_COLD join_result_t<PA, PB> join_from_outside(PA a, PB b);

// Every join that the gate did not let through (ADR 0008): outside every pool; recorded
// (B pushed, stealable once published) while the worker keeps fewer than its bound of
// private forks, or when a thread is hungry and nothing of this worker is public (the
// recorded path then publishes); otherwise unrecorded, opening the gate when no thread is
// hungry so that the next joins skip this call. While a published job waits for its thief
// (a sleeper takes tens of microseconds to wake), more recorded joins would only be pushed
// and popped back. PA and PB are fork_arg_t of what join deduced.
template <class PA, class PB>
[[gnu::noinline]] join_result_t<PA, PB> join_slow(PA a_in, PB b_in) {
  worker* const w = current_worker;
  if (w == nullptr) [[unlikely]]
    return join_from_outside<PA, PB>(a_in, b_in);
  using A = std::remove_reference_t<PA>;
  using B = std::remove_reference_t<PB>;
  A& a = a_in;
  B& b = b_in;
  if (w->deque.private_full() && (w->try_open_gate() || !w->deque.public_is_empty()))
    return join_unrecorded(a, b);
  return join_recorded(*w, a, b);
}

// A join whose B is made stealable before A starts, whether or not a thread is hungry yet
// (plain joins publish only on demand). For a caller that knows A runs long enough that a
// thread turning idle during it should not have to wait for A's end to be given B: the
// splitting engine's leaves over items of tens of microseconds (plumbing/split_tree.hpp). Costs
// one publication (a CAS, and a wake-up if a worker sleeps) and, if nobody took B, the
// public pop's CAS. Outside every pool it is a plain join from outside.
template <class PA, class PB>
[[gnu::noinline]] join_result_t<PA, PB> join_shared(PA a_in, PB b_in) {
  worker* const w = current_worker;
  if (w == nullptr) [[unlikely]]
    return join_from_outside<PA, PB>(a_in, b_in);
  return join_recorded<true>(*w, static_cast<std::remove_reference_t<PA>&>(a_in),
                             static_cast<std::remove_reference_t<PB>&>(b_in));
}

// Runs `f` inline on the seat reserved for this thread (src/sched/seat.cpp), entered and
// left with two plain stores and two loads; an exception leaves it on its way out.
// Precondition: the thread is outside every pool and `w0` is what enter_biased_seat returned.
template <class F>
WEFT_INLINE decltype(auto) run_in_biased_seat(registry* reg, worker& w0, F& f) {
  struct biased_guard {
    registry* reg;
    worker& w0;
    std::uint32_t entry;
    ~biased_guard() { leave_biased_seat(reg, w0, entry); }
  } guard{reg, w0, w0.deque.drop_all_stolen()};
  return std::invoke(f);
}

// `f` runs inline on the caller seat taken normally (rt::enter_seat) when it is free, else
// as a job through the injector while the calling thread waits.
template <class F>
decltype(auto) run_in_seat_or_injector(registry* reg, F& f) {
  // The seat free: run `f` right here as worker 0, with no job and no latch; an exception
  // leaves the seat on its way out.
  if (rt::seat_ticket ticket; rt::enter_seat(reg, ticket)) [[likely]] {
    struct seat_guard {
      registry* reg;
      const rt::seat_ticket& ticket;
      ~seat_guard() { rt::leave_seat(reg, ticket); }
    } guard{reg, ticket};
    return std::invoke(f);
  }
  stack_job<F> job(f, current_worker);  // nullptr outside every pool: a futex latch
  rt::inject_and_wait(reg, &job, job.latch());
  if constexpr (std::is_void_v<typename stack_job<F>::result_type>)
    job.result().take();
  else
    return job.result().take();
}

// For a thread outside every pool: the seat reserved for it if it has one on `reg`, else as
// run_in_seat_or_injector.
template <class F>
decltype(auto) run_from_outside(registry* reg, F& f) {
  if (worker* const w0 = enter_biased_seat(reg)) [[likely]]
    return run_in_biased_seat(reg, *w0, f);
  return run_in_seat_or_injector(reg, f);
}

// `f` run inside an isolation_frame of the worker the thread acts as when it runs.
template <class F>
struct isolated_call {
  F& f;
  decltype(auto) operator()() const {
    isolation_frame frame(*current_worker);
    return std::invoke(f);
  }
};

// Runs `f` as a worker of `reg` and returns its result; for threads that are not workers
// of `reg` (outside every pool, or workers of another pool).
// A calling thread inside weft::isolate runs `f` isolated there too.
// The common case first: a thread outside every pool and every isolation, with the seat
// reserved for it (a thread that calls install or the global pool again and again).
template <class F>
decltype(auto) run_in(registry* reg, F& f) {
  const worker* const caller = current_worker;
  if (caller == nullptr) {
    if (outside_isolation_depth == 0) [[likely]]
      return run_from_outside(reg, f);
    isolated_call<F> isolated{f};
    return run_from_outside(reg, isolated);
  }
  if (caller->isolated()) [[unlikely]] {
    isolated_call<F> isolated{f};
    return run_in_seat_or_injector(reg, isolated);
  }
  return run_in_seat_or_injector(reg, f);
}

// A join called outside every pool runs whole on the global pool.
template <class PA, class PB>
WEFT_COLD join_result_t<PA, PB> join_from_outside(PA a, PB b) {
  using A = std::remove_reference_t<PA>;
  using B = std::remove_reference_t<PB>;
  auto whole = [&] { return join_slow<A&, B&>(a, b); };
  return run_in(rt::global_registry(), whole);
}

// The registry that operations of the current thread run on.
inline registry* current_registry() {
  if (worker* w = current_worker) return w->reg;
  return rt::global_registry();
}

// Whether a fork by the calling thread now, on the pool its operations run on, would wait
// for a sleeping thread to be woken: the splitting engine probes longer before such a fork.
inline bool fork_would_wake() noexcept {
  if (const worker* w = current_worker) return w->fork_would_wake();
  return rt::global_fork_would_wake();
}

}  // namespace weft::detail
