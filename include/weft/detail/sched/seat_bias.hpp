// SPDX-License-Identifier: MIT
// A thread's bias on one pool's caller seat: what run_in reads to enter the seat inline.
// Protocol: src/sched/seat.cpp (B1..B6), docs/protocols/injection.md#the-biased-seat
#pragma once

#include <atomic>
#include <cstdint>

#include "weft/detail/config.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft::detail {

class registry;

// The seat of `reg` is reserved for the thread this belongs to (one per thread), which
// enters and leaves it with no atomic read-modify-write: BiasEnter (active = 1), BiasCheck
// (*word == seat_value), ... BiasExit (active = 0), BiasCheck.
struct seat_bias {
  // The pool whose seat is reserved, or nullptr. Read by its thread; cleared by its thread,
  // or under the seat's bias mutex by a revoker or by the pool's destructor (B4).
  std::atomic<registry*> reg{nullptr};
  // Set at the grant, with `reg`, by its thread: the pool's seat word and its worker 0.
  std::atomic<std::uint64_t>* word = nullptr;
  worker* seat_worker = nullptr;
  // The seat word's value while the bias stands: biased(E).
  std::uint64_t seat_value = 0;
  // 1 while its thread runs as worker 0 through the bias (BiasEnter .. BiasExit); read by
  // a revoker after its membarrier (BiasRead).
  std::atomic<std::uint32_t> active{0};
};

// The calling thread's bias. Exported like current_worker: libweft grants and revokes it,
// the caller's code (run_in) reads it.
WEFT_API constinit inline thread_local seat_bias this_thread_bias{};

// The owner's side of the bias, the one copy of it (run_in inlines it; rt::enter_seat and
// rt::leave_seat call it). The calling thread, outside every pool (current_worker is
// nullptr: the caller checks), enters the seat of `reg` reserved for it: BiasEnter,
// BiasCheck. Returns worker 0, which the thread now acts as, or nullptr: no bias on `reg`
// (take the seat normally), or one revoked while the thread was outside, which it drops
// here before it takes the seat normally.
WEFT_INLINE worker* enter_biased_seat(registry* reg) noexcept {
  seat_bias& b = this_thread_bias;
  if (b.reg.load(std::memory_order_relaxed) != reg) return nullptr;
  b.active.store(1, std::memory_order_relaxed);  // BiasEnter
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (b.word->load(std::memory_order_acquire) == b.seat_value) [[likely]] {  // BiasCheck
    worker& w0 = *b.seat_worker;
    enter_worker(w0);
    return &w0;
  }
  rt::drop_revoked_bias(reg);  // revoked while this thread was outside: back off
  return nullptr;
}

// Whether a seat holder that entered worker 0's deque at height `entry` left jobs on it
// (registry::settle_seat): above the entry height, or private below it.
WEFT_INLINE bool seat_left_jobs(const worker& w0, std::uint32_t entry) noexcept {
  return w0.deque.size_for_owner() > entry || w0.deque.has_private();
}

// Leaves the seat entered by enter_biased_seat (`w0`: worker 0; `entry`: its deque height
// then): settles what the thread left on worker 0's deque, BiasExit, BiasCheck; a revoker
// that came meanwhile is waiting for this thread to free the seat and drain.
WEFT_INLINE void leave_biased_seat(registry* reg, worker& w0, std::uint32_t entry) noexcept {
  if (seat_left_jobs(w0, entry)) [[unlikely]]
    rt::settle_seat(reg);
  leave_worker();
  seat_bias& b = this_thread_bias;
  b.active.store(0, std::memory_order_release);  // BiasExit
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (b.word->load(std::memory_order_acquire) != b.seat_value) [[unlikely]]  // BiasCheck
    rt::drop_revoked_bias(reg);
}

}  // namespace weft::detail
