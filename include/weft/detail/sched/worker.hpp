// SPDX-License-Identifier: MIT
// The per-thread worker context that the inline fork-join fast path touches.
// Design: docs/design.md#thread-states
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "weft/detail/config.hpp"
#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sync/cache_padded.hpp"
#include "weft/detail/sync/fifo_queue.hpp"
#include "weft/detail/sync/spawn_arena.hpp"
#include "weft/detail/sync/split_deque.hpp"

namespace weft::detail {

class registry;
struct mailed_job;

// ---------------------------------------------------------------------------------------
// The join gate. Contract: weft::join runs its two sides as plain calls after one relaxed
// load of a thread-local pointer's target (the gate of the current worker) when that load
// reads 1. The gate reads 1 only if the last time the owner looked, the private region of its
// deque held its bound (ADR 0006: further forks would not be recorded) and no thread was
// hungry; and a thread that becomes hungry later closes it, so the owner's next join takes
// the slow path, sees the hunger and records (hence publishes) a fork. (ADR 0008.)
//
// Roles. owner: the thread acting as the worker (opens, closes, reads); hungry thread: a
// worker that just counted itself inactive in the sleep counters (closes every gate).
//
// Invariants.
//   J1  gate == 1 only between the owner's open (G1) and the next owner mutation of the
//       deque (push, pop, publish, bound change: each closes before it returns, G3) or
//       hungry poke (G2). Only the owner acts on a 1, and never inside a mutation, so where
//       the close falls within the mutation is invisible to every thread.
//   J2  (no lost hunger) if a thread is counted inactive after the owner's re-check of the
//       counters (GateCheck) read none, that thread's poke (G2) closes the gate.
//   J3  a thread's gate pointer points at its current worker's gate, or at closed_gate
//       (always 0) outside every pool; switching workers closes the new one's gate.
//
// The race it survives ("owner reads no hunger; B turns hungry; owner opens"): the owner
// re-reads the counters after opening. Owner: G1 (store 1), then GateCheck (load counters).
// B: C1 (counters += one inactive, found 0), then G2 (load gate, store 0 if it read 1). All
// four are seq_cst, so in their single total order either GateCheck comes after C1 (the
// owner sees the hunger, closes again and records) or G1 comes before G2's load (B reads 1
// and closes). Only the thread whose C1 found 0 inactive needs to close (J2): GateCheck
// reads the latest counters, so the first increment after an open starts from 0.
// Closing is always safe: a closed gate costs one out-of-line check.
//
// Ordering table.
// | tag       | where               | operation                 | order   | pairs with | why
// |-----------|---------------------|---------------------------|---------|------------|-----
// | G1        | try_open_gate       | store gate = 1            | seq_cst | G2         | store->load with GateCheck (Dekker)
// | GateCheck | try_open_gate       | load counters             | seq_cst | C1         | sees any inactive count made before G2's load
// | G2        | poke (hungry thread)| load gate, store gate = 0 | seq_cst | G1         | after C1 in the total order: reads an open made before it
// | G3        | owner mutations     | store gate = 0            | relaxed | -          | owner's own word; closing needs no order
// | G4        | weft::join          | load gate                 | relaxed | G2         | a stale 1 delays sharing by one join, never correctness
// ---------------------------------------------------------------------------------------

struct alignas(cache_line_bytes) worker {
  split_deque deque;
  registry* reg = nullptr;
  // The sleep module's counters word; non-zero idle bits mean a thread is hungry.
  const std::atomic<std::uint64_t>* sleep_counters = nullptr;
  std::uint32_t index = 0;
  std::uint64_t rng_state = 0;
  // The spawn group (a scope's count of shared jobs) whose body or task this thread runs
  // innermost, or nullptr: a spawn into that group from here may stay uncounted (S1,
  // detail/fork/scope_impl.hpp). Owner only.
  const std::atomic<std::size_t>* spawn_group = nullptr;
  // The deque height at the start of that innermost frame: task_group::wait never pops
  // below it (the frame's own drain needs what lies above). Owner only.
  std::uint32_t frame_floor = 0;
  // weft::async's unrecorded starts since it last opened the gate (ADR 0008): it opens the
  // gate (a seq_cst store and load) on every eighth, not on each. Owner only.
  std::uint32_t unrecorded_asyncs = 0;
  // How many weft::async tasks this thread took back from its own deque and is running now
  // (nested): async counts them as held forks when it asks whether its private region is
  // full (split_deque::private_full(held)). Owner only.
  std::uint32_t asyncs_taken_back = 0;
  // Isolation (weft::isolate; docs/protocols/isolation.md): the lowest deque slot whose
  // items were pushed inside an isolated region this thread runs, or not_isolated. Written by
  // the owner when it enters and leaves a region (I1), read by thieves right after a steal
  // (IsoRead): a job stolen from a slot at or above it runs isolated on the thief too.
  static constexpr std::uint32_t not_isolated = ~std::uint32_t{0};
  std::atomic<std::uint32_t> isolated_from{not_isolated};
  bool isolated() const noexcept {
    return isolated_from.load(std::memory_order_relaxed) != not_isolated;
  }
  // Counters for thread_pool::stats(), written only by the owner on its scheduling paths
  // (never by a join or a spawn): a relaxed load and store, no read-modify-write, so they
  // cost nothing on the hot path; relaxed loads from any thread read them. Their own line:
  // a thief reads `isolated_from` after every steal, and must not find it on a line the
  // victim writes for each job it runs.
  struct alignas(cache_line_bytes) counters {
    std::atomic<std::uint64_t> jobs_run{0};  // jobs taken from the pool's queues and run
    std::atomic<std::uint64_t> steals{0};    // of those, taken from another worker's deque
    static void bump(std::atomic<std::uint64_t>& c) noexcept {
      c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
  } stats;
  // Blocks for the tasks this worker spawns (docs/protocols/spawn.md#the-spawn-arena).
  spawn_arena arena;
  // Jobs addressed to this worker (broadcast): pushed by any thread (M1, release CAS),
  // taken whole by the owner (M2, acquire exchange). Own line: the owner reads it every
  // search round, posters write it rarely.
  cache_padded<std::atomic<mailed_job*>> mailbox{nullptr};
  // The callables of detached FIFO spawns made by this worker, oldest first: pushed by the
  // owner, popped by whichever thread runs one of their indirection jobs
  // (docs/protocols/spawn.md#fifo-spawns). Own line, apart from the owner-only fields.
  cache_padded<fifo_queue> fifo;

  // Bits of the sleep counters that count idle (inactive) threads and, among them, the
  // sleeping ones; see src/sched/sleep.hpp.
  static constexpr std::uint64_t inactive_mask = 0xFFFFull << 16;
  static constexpr std::uint64_t sleeping_mask = 0xFFFFull;

  // Relaxed and racy on purpose: a stale answer costs parallelism, never correctness,
  // because an unpublished job is always run by its owner (docs/protocols/deque.md).
  bool someone_is_hungry(std::memory_order order = std::memory_order_relaxed) const noexcept {
    return (sleep_counters->load(order) & inactive_mask) != 0;
  }

  // Whether a job this worker published now would wait for a sleeping thread to be woken:
  // some threads sleep and every idle one does. Such a fork costs its caller a wake-up
  // (~10 us on the 2-core reference machine) and the woken thread arrives ~30 us later;
  // when a thread is idle and awake, or none is idle (the job stays private), a fork costs
  // ~0.5 us.
  // Relaxed and racy like someone_is_hungry: it sizes the engine's probe, nothing else.
  bool fork_would_wake() const noexcept {
    const std::uint64_t c = sleep_counters->load(std::memory_order_relaxed);
    const std::uint64_t sleeping = c & sleeping_mask;
    return sleeping != 0 && (c & inactive_mask) >> 16 == sleeping;
  }

  // Owner, when the private region is full: opens the gate unless a thread is hungry, and
  // says whether it stayed open (J2).
  bool try_open_gate() noexcept {
    if (someone_is_hungry()) return false;
    deque.open_gate();  // G1
    if (!someone_is_hungry(std::memory_order_seq_cst)) return true;  // GateCheck
    deque.close_gate();
    return false;
  }
};

// The worker the current thread is acting as, or nullptr outside every pool. Exported so that
// a shared libweft and the inline code in its users share one variable.
WEFT_API constinit inline thread_local worker* current_worker = nullptr;

// How many weft::isolate calls a thread outside every pool is inside: its entries into a
// pool (run_in) run isolated there. Exported like current_worker.
WEFT_API constinit inline thread_local std::uint32_t outside_isolation_depth = 0;

// ---------------------------------------------------------------------------------------
// Isolation (weft::isolate). Contract: a thread that waits inside an isolated region runs
// only work forked or spawned inside that region (by any thread), and mail (broadcast).
// Full text: docs/protocols/isolation.md.
//
// State. Per worker, `isolated_from`: not_isolated, or the deque height at which the
// outermost region the thread is in started. Per sleeper, `is_isolated` (sleep module,
// under its mutex).
//
// Invariants.
//   I1  while a thread is in a region, every item it pushes sits at a slot >= isolated_from;
//       every item below was pushed before the region started. (Slots are heights: an item
//       pushed inside sits above the region's starting height until it is popped or stolen.)
//   I2  a thief that steals the item at slot t of victim v runs it isolated iff t >=
//       v.isolated_from as read right after the steal (IsoRead). The region that pushed the
//       item cannot have ended by then, since it waits for the item (a join's B, a scope's
//       task) — except a detached task, which may be classed either way.
//   I3  a waiting thread in a region (rt::wait_until) pops only its own deque above its
//       floor (items of the region, by I1) and takes mail; it never steals and never takes
//       injected jobs. It is not counted idle in the sleep counters, and wake_any never
//       wakes it: only the setter of its latch (wake_specific) or a poster of mail does.
//
// Ordering table.
// | tag     | where                  | operation                  | order   | pairs with | why
// |---------|------------------------|----------------------------|---------|------------|-----
// | I1      | region enter / leave   | isolated_from store        | relaxed | IsoRead    | items pushed after it reach a thief only through the deque's Q3 (release), which the thief's Q5 (acquire) reads: the store is visible to IsoRead
// | IsoRead | steal_from             | victim's isolated_from load| relaxed | I1         | after Q5: sees at least the value stored before the item was published
// | MB      | sleep_isolated         | mailbox load under M1      | acquire | M1 (post)  | mail posted before the check is seen; after it, the poster finds the thread blocked under the same mutex
//
// An isolated region on worker `w` (weft::isolate, or a stolen job from one): while it
// lasts, every item the thread pushes is marked isolated for thieves by its slot (at or
// above isolated_from), and the thread's waits run only its own items (rt::wait_until).
// Regions nest: an inner one keeps the outer's (lower) slot.
// ---------------------------------------------------------------------------------------
class isolation_frame {
 public:
  explicit isolation_frame(worker& w) noexcept
      : w_(w), saved_(w.isolated_from.load(std::memory_order_relaxed)) {
    // I1: relaxed; the items pushed after it reach a thief through the deque's publication
    // (Q3 release, Q5 acquire), which orders this store before the thief's IsoRead.
    if (saved_ == worker::not_isolated)
      w.isolated_from.store(w.deque.size_for_owner(), std::memory_order_relaxed);
  }
  isolation_frame(const isolation_frame&) = delete;
  isolation_frame& operator=(const isolation_frame&) = delete;
  ~isolation_frame() { w_.isolated_from.store(saved_, std::memory_order_relaxed); }  // I1

 private:
  worker& w_;
  std::uint32_t saved_;
};

// The gate of a thread outside every pool: never opened, so weft::join takes its slow path.
inline constinit const std::atomic<std::uint32_t> closed_gate{0};
// The gate weft::join reads (J3): current_worker's, or closed_gate. Exported like
// current_worker; only set_current_worker writes it.
WEFT_API constinit inline thread_local const std::atomic<std::uint32_t>* current_gate =
    &closed_gate;

// Makes the calling thread act as `w`. Closes w's gate: whatever opened it described
// another moment of that deque (J3).
WEFT_INLINE void enter_worker(worker& w) noexcept {
  current_worker = &w;
  w.deque.close_gate();
  current_gate = &w.deque.gate();
}
// Makes the calling thread act as no worker.
WEFT_INLINE void leave_worker() noexcept {
  current_worker = nullptr;
  current_gate = &closed_gate;
}
// Makes the calling thread act as `w` (nullptr: as no worker).
inline void set_current_worker(worker* w) noexcept {
  if (w != nullptr)
    enter_worker(*w);
  else
    leave_worker();
}

// The owner's newest job above `floor`, popped; nullptr once the deque's height is at or
// below `floor`. A slot whose job was stolen comes back empty, and with it every slot below
// it down to `floor`.
inline job_header* pop_own_above(worker& w, std::uint32_t floor) noexcept {
  while (w.deque.size_for_owner() > floor) {
    if (void* item = w.deque.pop()) return job_of(item);
    w.deque.drop_stolen_down_to(floor);  // every slot below a stolen one was stolen (I4)
  }
  return nullptr;
}

// Runs the owner's jobs above `floor`, newest first, until its height is back at `floor`.
// The caller knows that only jobs it may run lie there (no join's B whose joiner is below:
// only that joiner may run it).
// A hungry thread is offered the oldest of what is left before each job runs: a scope body
// that spawned its tasks in a loop drains them here, and without the offer a thread that
// went idle meanwhile would find nothing public until the drain ends.
inline void run_own_jobs_down_to(worker& w, std::uint32_t floor) noexcept {
  while (job_header* job = pop_own_above(w, floor)) {
    if (w.deque.has_private() && w.someone_is_hungry()) [[unlikely]] rt::share_spawned_work(w);
    job->execute(job);
  }
}

}  // namespace weft::detail
