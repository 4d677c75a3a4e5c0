// SPDX-License-Identifier: MIT
// How idle workers go to sleep without ever missing work, and how posters wake them.
// Protocol: docs/protocols/sleep.md
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

#include "injector.hpp"
#include "weft/detail/sync/cache_padded.hpp"
#include "weft/detail/sync/core_latch.hpp"

namespace weft::detail {

// ---------------------------------------------------------------------------------------
// Contract. (S-a) If a job is published (deque publish or injection, E1) and afterwards
// every worker is asleep, then some worker was woken after E1: posted work is never
// stranded. (S-b) If a latch a worker sleeps on is set, that worker is woken.
// (S-c) When no work is posted, every idle worker ends blocked in the kernel: no spinning.
//
// Roles. sleeper: a worker with nothing to do (idle loop or waiting in a join);
// poster: a thread that published or injected jobs; setter: a thread setting a latch.
//
// State. One 64-bit `counters_` word (own cache line):
//   bits  0..15  sleeping: workers registered as blocked (decremented by the WAKER)
//   bits 16..31  inactive: workers idle or sleeping (not running a job)
//   bits 32..63  jec: jobs event counter; even = "sleepy" (someone announced it may
//                sleep and no job was posted since), odd = "active"
// Per worker (own cache line): a mutex, a condition variable and `is_blocked` (guarded by
// the mutex): true only while the worker is registered in `sleeping` and may block.
//
// Steps of a sleeper (no_work_found, called once per fruitless search round):
//   rounds 0..31  yield; search again
//   round 32      announce sleepy: make jec even (if it was odd), remember it; yield
//   round 33      search again, then sleep
//   then sleep(): latch UNSET->SLEEPY, lock, latch SLEEPY->SLEEPING, then register in
//   `sleeping` with a CAS that fails if jec moved since the announcement (a job was posted:
//   go back to searching); SleepFence; re-check the injector; block while is_blocked.
// Steps of a poster: publish the job; (injector only: InjectFence;) make jec odd if it
// is even (a seq_cst RMW that also reads sleeping/inactive); wake as many sleepers as
// there are new jobs not covered by awake idle threads.
//
// Invariants.
//   I1  inactive >= sleeping.
//   I2  a worker is counted in `sleeping` iff its is_blocked is true, or it is between
//       its registration CAS and the injector re-check (it then undoes the count itself).
//   I3  only a waker sets is_blocked to false for a blocked worker, and it decrements
//       `sleeping` in the same critical section: a worker is never counted twice.
//
// The race it survives ("A finds no work; B posts but sees no sleepers; A sleeps"):
//   A: announce sleepy (jec = 2k)   A: search: nothing
//   B: publish job                   B: RMW jec 2k -> 2k+1, reads sleeping == 0, wakes none
//   A: registration CAS expects jec == 2k: fails, A searches again and finds the job.
// If B's RMW comes after A's registration CAS instead, B reads sleeping >= 1 and wakes A.
// All counter operations are seq_cst RMWs on one word, so one of the two orders holds.
// For injected jobs the job lives in another location (the injector), so B and A each
// issue a seq_cst fence (InjectFence, SleepFence) between their write and their read:
// either B's injector write is visible to A's re-check, or A's registration is visible to
// B's read of `sleeping`.
//
// Ordering table.
// | tag | where                  | operation              | order   | pairs with | why
// |-----|------------------------|------------------------|---------|------------|-----
// | C1  | every counters update  | RMW / CAS              | seq_cst | C1         | one total order of announce, post, register
// | C2  | new_jobs read          | RMW jec (or load)      | seq_cst | C1         | sleeping count read after the post
// | F1  | SleepFence             | fence                  | seq_cst | F2         | register -> injector re-check (store->load)
// | F2  | InjectFence            | fence                  | seq_cst | F1         | inject -> read sleeping (store->load)
// | M1  | is_blocked             | mutex                  | -       | -          | wake_specific sees a fully registered sleeper
// | MB  | mailbox re-check       | load, under the mutex  | acquire | M1 (mutex) | a poster's wake_specific after its push: either it finds
// |     |                        |                        |         |            | is_blocked, or the sleeper's re-check (later, same mutex) sees the mail
// TSan: F1/F2 go through fence_seq_cst() (an RMW on one word under TSan); see atomic.hpp.
// ---------------------------------------------------------------------------------------

class sleep_module {
 public:
  static constexpr std::uint32_t rounds_until_sleepy = 32;
  static constexpr std::uint32_t invalid_jec = ~std::uint32_t{0};

  struct idle_state {
    std::uint32_t worker_index;
    // This thread's C1 took `inactive` from 0 to 1: it must close every join gate (G2,
    // sched/worker.hpp). Later ones need not: no gate opens while inactive > 0.
    bool first_hungry = false;
    std::uint32_t rounds = 0;
    std::uint32_t jec = invalid_jec;
    void wake_fully() noexcept {
      rounds = 0;
      jec = invalid_jec;
    }
    void wake_partly() noexcept {
      rounds = rounds_until_sleepy;
      jec = invalid_jec;
    }
  };

  explicit sleep_module(std::size_t num_workers);

  const std::atomic<std::uint64_t>* counters_word() const noexcept { return &counters_.value; }

  idle_state start_looking(std::uint32_t worker_index) noexcept;
  // Leaving the idle state (work found, or the awaited latch set): decrements inactive and
  // wakes up to two sleepers if there are any (the wake-up cascade).
  void work_found() noexcept;
  // One fruitless round: yield, announce, or sleep on `latch` (which a setter may set).
  // `mailbox`: the sleeper's own (re-checked before it blocks, MB), or nullptr.
  void no_work_found(idle_state& idle, core_latch& latch, const injector& injected,
                     const std::atomic<mailed_job*>* mailbox = nullptr) {
    if (idle.rounds < rounds_until_sleepy) {
      yield();
      ++idle.rounds;
    } else if (idle.rounds == rounds_until_sleepy) {
      idle.jec = announce_sleepy();
      ++idle.rounds;
      yield();
    } else {
      sleep(idle, latch, injected, mailbox);
    }
  }

  // A worker published `num_jobs` jobs on its deque.
  void new_internal_jobs(std::uint32_t num_jobs, bool queue_was_empty) noexcept;
  // A thread injected jobs (InjectFence inside).
  void new_injected_jobs(std::uint32_t num_jobs) noexcept;
  // A thread in an isolated wait (docs/protocols/isolation.md) blocks on `latch` until it is
  // set or mail arrives, without counting itself sleeping or idle: new work must not be
  // sent its way (wake_any skips it), only its latch's setter and its mail wake it.
  void sleep_isolated(std::uint32_t index, core_latch& latch,
                      const std::atomic<mailed_job*>* mailbox) {
    park(index, latch, mailbox, nullptr);
  }
  // A worker above a thread limit (src/sched/limit.hpp) blocks as an isolated waiter does, and
  // only while its index is still at or above `*allowed` when it looks under its mutex (L5,
  // A3); nullptr: unconditionally (sleep_isolated).
  void park(std::uint32_t index, core_latch& latch, const std::atomic<mailed_job*>* mailbox,
            const std::atomic<std::uint32_t>* allowed);
  // Wakes worker `index` if it is blocked (a latch it waits on was set, or mail came).
  // Returns whether it was.
  bool wake_specific(std::uint32_t index) noexcept;
  void wake_all() noexcept;

  std::uint32_t sleeping() const noexcept;
  // Worker `index`'s blocks in the kernel and the wake-ups that ended them (for stats).
  std::pair<std::uint64_t, std::uint64_t> sleeps_of(std::uint32_t index) noexcept;
  std::uint32_t inactive() const noexcept;

 private:
  struct worker_sleep_state {
    std::mutex mutex;
    std::condition_variable condvar;
    bool is_blocked = false;
    bool is_isolated = false;  // blocked in park (isolated or limited): not counted in counters_
    std::uint64_t sleeps = 0;   // times it blocked; guarded by mutex
    std::uint64_t wakeups = 0;  // times another thread unblocked it; guarded by mutex
  };

  static void yield() noexcept;
  std::uint32_t announce_sleepy() noexcept;
  void sleep(idle_state& idle, core_latch& latch, const injector& injected,
             const std::atomic<mailed_job*>* mailbox);
  void new_jobs(std::uint32_t num_jobs, bool queue_was_empty) noexcept;
  void wake_any(std::uint32_t count) noexcept;
  // Wakes worker `index` if it is blocked, and, unless `isolated_too`, not blocked in
  // sleep_isolated; counts it awake if it was counted sleeping. Returns whether it woke it.
  bool unblock(std::uint32_t index, bool isolated_too) noexcept;

  cache_padded<std::atomic<std::uint64_t>> counters_{0};
  std::size_t num_workers_;
  std::unique_ptr<cache_padded<worker_sleep_state>[]> states_;
};

}  // namespace weft::detail
