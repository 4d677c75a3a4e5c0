// SPDX-License-Identifier: MIT
// The four-state latch every waitable event is built on: a pure state machine, it never
// wakes anyone itself (waking is the scheduler's job, see detail/sched/latch.hpp).
// Protocol: docs/protocols/latch.md
#pragma once

#include <atomic>
#include <cstdint>

#include "weft/detail/config.hpp"
#include "weft/detail/sync/atomic.hpp"

namespace weft::detail {

// ---------------------------------------------------------------------------------------
// Contract. If set() (E1) happens and probe() later returns true (E2), every write made
// before E1 by the setting thread is visible after E2. A set() that finds the waiter
// SLEEPING reports it, and the caller must wake that waiter: no wake-up is lost.
//
// Roles. One waiter (probe, get_sleepy, fall_asleep, wake_up); one setter (set).
//
// States (the waiter moves UNSET -> SLEEPY -> SLEEPING; the setter moves any -> SET):
//   unset     the event has not happened; the waiter is awake
//   sleepy    the waiter announced it may sleep; it re-checks for work once more
//   sleeping  the waiter is about to block, or blocked: set() must wake it
//   set       the event happened; terminal
//
// Transitions.
// | from     | to       | by     | operation                   | order
// |----------|----------|--------|-----------------------------|--------
// | unset    | sleepy   | waiter | CAS (get_sleepy)            | acq_rel (L2)
// | sleepy   | sleeping | waiter | CAS (fall_asleep)           | acq_rel (L2)
// | sleeping | unset    | waiter | CAS (wake_up, spurious/idle)| acq_rel (L2)
// | any      | set      | setter | exchange (set)              | acq_rel (L1)
//
// Deferred start. core_latch(deferred) leaves the word unwritten (late_atomic): for a latch
// that only matters if its job is shared. reset() must then happen before any other thread
// can reach the latch, and before any operation on it; it is a plain store, published by
// whatever makes the job reachable (deque Q3).
//
// Warning: after set() the frame holding the latch may already be gone (the waiter saw
// `set` and returned). A setter reads everything it needs before calling set().
//
// Ordering table.
// | tag | where      | op            | order   | pairs with | why
// |-----|------------|---------------|---------|------------|-----
// | L1  | set        | exchange      | acq_rel | L0, L2     | publish the job's result; read the waiter's state
// | L0  | probe      | load          | acquire | L1         | see the result written before set
// | L2  | waiter CAS | CAS           | acq_rel | L1         | a CAS that fails observed `set`: acquire its writes
// ---------------------------------------------------------------------------------------
class core_latch {
 public:
  static constexpr std::uint32_t unset = 0;
  static constexpr std::uint32_t sleepy = 1;
  static constexpr std::uint32_t sleeping = 2;
  static constexpr std::uint32_t set_state = 3;

  core_latch() noexcept : state_(unset) {}
  explicit core_latch(deferred_t) noexcept : state_(deferred) {}
  core_latch(const core_latch&) = delete;
  core_latch& operator=(const core_latch&) = delete;

  // (Re)starts the latch UNSET. Only while no other thread can reach it.
  void reset() noexcept { state_.construct(unset); }

  bool probe() const noexcept { return state_.get().load(std::memory_order_acquire) == set_state; }  // L0

  // Returns true if the waiter was sleeping and must be woken by the caller.
  bool set() noexcept { return state_.get().exchange(set_state, std::memory_order_acq_rel) == sleeping; }  // L1

  bool get_sleepy() noexcept { return cas(unset, sleepy); }
  bool fall_asleep() noexcept { return cas(sleepy, sleeping); }
  void wake_up() noexcept {
    if (!probe()) cas(sleeping, unset);
  }

  std::atomic<std::uint32_t>& word() noexcept { return state_.get(); }

 private:
  bool cas(std::uint32_t from, std::uint32_t to) noexcept {
    return state_.get().compare_exchange_strong(from, to, std::memory_order_acq_rel,  // L2
                                                std::memory_order_acquire);
  }
  late_atomic<std::uint32_t> state_;
};

}  // namespace weft::detail
