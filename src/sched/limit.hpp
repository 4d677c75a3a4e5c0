// SPDX-License-Identifier: MIT
// weft::thread_limit: how threads above a live limit stop taking new work and park.
// Design: docs/guide.md#pools
#pragma once

#include <atomic>
#include <cstdint>

#include "weft/detail/sched/worker.hpp"

namespace weft::detail {

class registry;

// ---------------------------------------------------------------------------------------
// Contract. While limits are live, let k be the smallest. (T-a) A worker of any pool whose
// index is k or more starts no new work after its next search round: it steals nothing and
// takes no injected job; it finishes the work it holds (its mail, the jobs on its own deque)
// and then parks in the kernel. (T-b) Posted work is never stranded: if a job is published
// or injected, some thread with an index below k runs it, or, when k is 1, the caller seat
// does (its holder, or the next thread to take it). (T-c) Once the last limit at or below
// an index is gone, the parked workers of that index are woken.
//
// Roles. limiter: a thread constructing or destroying a weft::thread_limit (add, remove);
// limited worker: a worker whose index >= allowed; poster, injector, seat releaser as in
// sleep.hpp and docs/protocols/injection.md.
//
// State. `allowed` (process-wide word, read by every worker once per search round):
// the smallest live limit, or no_limit. The live limits and the live pools (to wake their
// parked workers) sit behind limits_mutex in limit.cpp. A parked worker is blocked in the
// sleep module as an isolated sleeper is (sleep_module::park): not counted sleeping or
// inactive, never picked by wake_any, woken only by its latch's setter, a mail poster, or
// a limiter that raises `allowed` above its index.
//
// Invariants.
//   L1  allowed == min(live limits) (no_limit when none); written only under limits_mutex.
//   L2  index 0 is never limited (a limit is at least 1): the caller seat always runs.
//   L3  a limited worker leaves the inactive count (C1 in sleep.hpp) before it parks, with
//       sleep_module::work_found, which wakes up to two sleepers, lowest index first (the
//       allowed ones): a poster that counted it as an awake idle thread and so woke nobody
//       has a sleeper woken in its place (T-b).
//   L4  seat-only mode: when allowed <= 1 a pool treats injected jobs as a one-thread pool
//       does: an injector after its InjectFence, and a seat releaser after SeatRelease,
//       drain the injector through the seat if they can take it (InjectCheck); a limited
//       worker that reads allowed <= 1 before it parks drains it too (LimitCheck): that
//       covers a job injected while allowed was still larger (its injector read the old
//       value, so its put precedes the limiter's store, which precedes the parker's read).
//   L5  a parked worker re-reads allowed under its sleep mutex before it blocks; a limiter
//       that raises allowed takes that mutex afterwards (wake_specific): the parker either
//       sees the new value or is blocked when the limiter looks, and is woken.
//
// Ordering table.
// | tag        | where                        | operation     | order   | pairs with | why
// |------------|------------------------------|---------------|---------|------------|-----
// | A1         | add / remove (limiter)       | store allowed | seq_cst | A3, A4     | one total order with the injector's J2, the seat word and LimitCheck (L4)
// | A2         | wait_until, each search round| load allowed  | relaxed | -          | a stale value delays parking (or un-parking) by one round, never correctness
// | A3         | park, under the sleep mutex  | load allowed  | seq_cst | A1 (mutex) | the limiter's later lock of the same mutex orders its store before this load (L5)
// | A4         | InjectCheck, SeatRelease,    | load allowed  | seq_cst | A1         | store->load against the injector's put (J2) and the seat word (L4)
// |            | LimitCheck                   |               |         |            |
// ---------------------------------------------------------------------------------------

inline constexpr std::uint32_t no_limit = ~std::uint32_t{0};

// The smallest live weft::thread_limit, or no_limit (L1).
extern std::atomic<std::uint32_t> allowed_threads;

// Whether `w` is above the live limit (A2).
inline bool is_limited(const worker& w) noexcept {
  return w.index >= allowed_threads.load(std::memory_order_relaxed);  // A2
}

// Whether `reg`'s injected jobs go through the caller seat only (L4, A4).
bool seat_only(const registry& reg) noexcept;

// Pools register for the lifters' wake-ups (T-c) while they live.
void register_pool(registry* reg);
void unregister_pool(registry* reg) noexcept;

// fork(): registry.cpp's handlers call these after taking global_mutex (one lock order).
void limits_before_fork() noexcept;
void limits_after_fork_in_parent() noexcept;
void limits_after_fork_in_child() noexcept;

}  // namespace weft::detail
