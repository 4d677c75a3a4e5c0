// SPDX-License-Identifier: MIT
// The caller seat: SeatAcquire / SeatRelease, the drains, and the biased seat.
// Protocol: docs/protocols/injection.md (the seat, and "The biased seat").
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

#include "limit.hpp"
#include "registry.hpp"
#include "weft/detail/config.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sync/atomic.hpp"

namespace weft::detail {

// ---------------------------------------------------------------------------------------
// The biased seat: a thread that takes a pool's caller seat again and again from outside
// (pool.install or weft::join in a loop in main) enters and leaves it with plain stores
// and loads instead of the SeatAcquire CAS and the SeatRelease seq_cst store (each an
// atomic read-modify-write: ~6 ns on the reference machine, two thirds of an install).
//
// Seat word. 0: free. 1: held (SeatAcquire won). biased(E) = 4E + 2: reserved for the
// thread whose seat_bias has seat_value == biased(E), which may be inside (running as
// worker 0) or outside. revoking(E) = 4E + 3: another thread asked for the seat while the
// bias of epoch E stood. Epochs come from one process-wide counter: a value names one
// bias of one pool, never reused.
//
// Roles. owner: the thread of the bias. revoker: any other thread that wants the seat
// (try_acquire_seat: an outside caller, an injecting thread of a one-thread pool, a mail
// poster). granter: an outside thread leaving a seat it held normally.
//
// Owner, entering (enter_biased_seat, sched/seat_bias.hpp):
//                                BiasEnter  active = 1          (relaxed store)
//                                           compiler barrier
//                                BiasCheck  seat == biased(E)?  (acquire load)
//                                           yes: run as worker 0; no: back off (below)
// Owner, leaving (leave_biased_seat):
//                                BiasExit   active = 0          (release store)
//                                           compiler barrier
//                                BiasCheck  seat == biased(E)?  yes: done; no: finish
// Revoker (revoke_bias, under bias_mutex):
//                                BiasRevoke CAS biased(E) -> revoking(E)  (seq_cst)
//                                BiasFence  membarrier(PRIVATE_EXPEDITED)
//                                BiasRead   owner's active      (acquire load)
//                                           0: CAS revoking(E) -> 0, the seat is free
//                                           1: leave it; the owner frees it on its way out
// Owner finishing (drop_owned_bias): active = 0 (release); CAS revoking(E) -> 0 (seq_cst),
// then SeatRelease's drains, as any holder that releases.
//
// Invariants.
//   B1  At most one thread runs as worker 0: the holder of a seat it won by CAS, or the
//       owner between a BiasCheck that read biased(E) and its BiasExit.
//   B2  The membarrier makes BiasRevoke/BiasRead and the owner's BiasEnter/BiasCheck (or
//       BiasExit/BiasCheck) a Dekker pair without a fence on the owner's side: the IPI
//       runs a full barrier on every thread of the process, so each owner access falls
//       before it (then BiasRead sees the owner's last store) or after it (then the
//       owner's BiasCheck sees revoking(E)). Hence if BiasRead reads 0, the owner is
//       outside and does not enter; if it reads 1, the owner will read revoking(E) on its
//       way out (or on its way in, and back off) and free the seat itself.
//   B3  Only revoking(E) -> 0 frees a bias's seat, by CAS, so a late owner or revoker
//       that lost the race changes nothing: the seat may be free, held or biased for a
//       later epoch by then.
//   B4  A thread with the seat reserved is the only reader of its seat_value; its
//       seat_bias outlives every revoker's use of it: bias_owner_ is read and cleared
//       under bias_mutex, and a thread's bias is dropped (under the mutex) before the
//       thread exits (bias_keeper) and before its pool is destroyed (drop_bias).
//   B5  Worker 0's state passes from the owner to the next holder by BiasExit (release)
//       -> BiasRead (acquire) when the owner is outside, or by the owner's CAS
//       revoking(E) -> 0 (seq_cst) -> the next SeatAcquire.
//   B6  Injected jobs and mail are never stranded behind a bias: an injector that finds
//       the seat biased revokes it (try_acquire_seat), and a revocation that finds the
//       owner inside leaves revoking(E), on which the owner runs SeatRelease's drains.
//
// Ordering table.
// | tag        | where                     | operation                     | order   | pairs with   | why
// |------------|---------------------------|-------------------------------|---------|--------------|-----
// | BiasEnter  | enter_biased_seat (owner) | active = 1                    | relaxed | BiasRead     | ordered before BiasCheck by the membarrier (B2)
// | BiasCheck  | enter/leave_biased_seat   | seat load                     | acquire | BiasRevoke   | sees revoking(E) when after the fence (B2)
// | BiasExit   | leave_biased_seat (owner) | active = 0                    | release | BiasRead     | worker 0's state to the revoker (B5)
// | BiasRevoke | revoke_bias               | CAS biased(E) -> revoking(E)  | seq_cst | BiasCheck    | before the fence: every later owner load sees it
// | BiasFence  | revoke_bias               | membarrier                    | -       | BiasEnter/Exit | the owner's half of the Dekker pair (B2)
// | BiasRead   | revoke_bias               | owner's active                | acquire | BiasExit     | inside or outside (B2), and its writes (B5)
// | BiasFree   | revoke_bias, owner        | CAS revoking(E) -> 0          | seq_cst | SeatAcquire  | seat handover (B3, B5), as SeatRelease
// | BiasGrant  | release_seat_from_outside | CAS 0 -> biased(E)            | seq_cst | SeatAcquire, InjectCheck | a free seat only: an injector after it revokes (B6)
//
// Cost. The owner's enter and leave: two stores, two loads, no RMW. A revocation: one
// membarrier (a few microseconds: an IPI to each CPU running one of the process's threads).
// The bias is granted after grant_after_ takes in a row by one thread (8), and each
// revocation doubles that (up to 65,536), so two threads taking turns pay a revocation
// rarely. Without the membarrier (kernel before 4.14, or a seccomp filter) no bias is
// ever granted and the seat works as SeatAcquire / SeatRelease alone.
// ---------------------------------------------------------------------------------------

namespace {

constexpr std::uint64_t seat_free = 0;
constexpr std::uint64_t seat_held_value = 1;
constexpr std::uint64_t biased(std::uint64_t epoch) noexcept { return 4 * epoch + 2; }
constexpr bool is_biased(std::uint64_t v) noexcept { return (v & 3) == 2; }
constexpr bool is_revoking(std::uint64_t v) noexcept { return (v & 3) == 3; }
constexpr std::uint64_t revoking_of(std::uint64_t biased_value) noexcept { return biased_value | 1; }
constexpr std::uint32_t max_grant_after = 65536;

std::mutex bias_mutex;
std::atomic<std::uint64_t> next_bias_epoch{1};

// this_thread_bias (sched/seat_bias.hpp) is trivially constructed, so the fast path reads
// it with no initialisation check; bias_keeper drops the bias when the thread exits.
struct bias_keeper {
  ~bias_keeper() {
    seat_bias& b = this_thread_bias;
    std::unique_lock<std::mutex> lock(bias_mutex);
    registry* const reg = b.reg.load(std::memory_order_relaxed);
    if (reg == nullptr) return;
    lock.unlock();
    // Still set under the mutex: the pool is alive (drop_bias clears it first, B4).
    reg->drop_owned_bias(b, reg->seat_word().load(std::memory_order_acquire));
  }
};
thread_local bias_keeper keeper;

bool membarrier_available() noexcept {
  static const bool available = [] {
    const long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds < 0 || (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return false;
    return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  }();
  return available;
}

void membarrier_all_threads() noexcept {  // BiasFence
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
    fatal("membarrier failed after it was registered");
}

}  // namespace

// A revoker: the seat word read `v`, biased or revoking. Returns true when the seat is no
// longer reserved (retry SeatAcquire), false when the owner is inside (it frees the seat
// and drains on its way out: B2, B6).
bool registry::revoke_bias(std::uint64_t v) noexcept {
  std::lock_guard<std::mutex> lock(bias_mutex);
  if (is_biased(v)) {
    if (!seat_.value.compare_exchange_strong(v, revoking_of(v), std::memory_order_seq_cst))  // BiasRevoke
      return true;  // it changed: look again
    v = revoking_of(v);
  } else if (!is_revoking(v)) {
    return true;
  }
  membarrier_all_threads();  // BiasFence
  if (seat_bias* const owner = bias_owner_;
      owner != nullptr && owner->seat_value == (v & ~std::uint64_t{1})) {
    if (owner->active.load(std::memory_order_acquire) != 0) return false;  // BiasRead
    // The owner is outside: it backs off at its next BiasCheck (B2).
    owner->reg.store(nullptr, std::memory_order_relaxed);
    bias_owner_ = nullptr;
  }
  const std::uint32_t after = grant_after_.load(std::memory_order_relaxed);
  grant_after_.store(after < max_grant_after ? after * 2 : after, std::memory_order_relaxed);
  seat_.value.compare_exchange_strong(v, seat_free, std::memory_order_seq_cst);  // BiasFree (B3)
  return true;
}

// The owner leaves its bias for good: it saw the seat word `seen` != biased(E) (revoked),
// or its thread exits. Frees the seat if a revoker left it revoking(E) (BiasFree), then
// drains as SeatRelease does.
void registry::drop_owned_bias(seat_bias& b, std::uint64_t seen) noexcept {
  b.active.store(0, std::memory_order_release);
  const std::uint64_t mine = b.seat_value;
  {
    std::lock_guard<std::mutex> lock(bias_mutex);
    if (b.reg.load(std::memory_order_relaxed) == this) b.reg.store(nullptr, std::memory_order_relaxed);
    if (bias_owner_ == &b) bias_owner_ = nullptr;
  }
  // The seat still names this bias: biased(E) (its thread exits with the bias standing) or
  // revoking(E) (a revoker left it to the owner). Anything else: a revoker freed it (B3).
  for (std::uint64_t v = seen; v == mine || v == revoking_of(mine);) {
    if (seat_.value.compare_exchange_weak(v, seat_free, std::memory_order_seq_cst)) {  // BiasFree
      release_seat_drains();
      return;
    }
  }
}

bool registry::seat_held() const noexcept {
  const std::uint64_t v = seat_.value.load(std::memory_order_relaxed);
  return v == seat_held_value || is_revoking(v);
}

bool registry::seat_taken() const noexcept {
  const std::uint64_t v = seat_.value.load(std::memory_order_relaxed);
  if (v == seat_free) return false;
  if (is_biased(v)) return this_thread_bias.seat_value != v || this_thread_bias.reg.load(std::memory_order_relaxed) != this;
  return true;
}

bool registry::try_acquire_seat() noexcept {
  std::uint64_t v = seat_.value.load(std::memory_order_relaxed);
  for (;;) {
    if (v == seat_free) {
      if (seat_.value.compare_exchange_strong(v, seat_held_value, std::memory_order_seq_cst))  // SeatAcquire
        return true;
      continue;  // v is what it holds now
    }
    if (v == seat_held_value) return false;  // its holder drains on release
    if (!revoke_bias(v)) return false;  // the owner is inside: it drains on its way out
    v = seat_.value.load(std::memory_order_relaxed);
  }
}

void registry::release_seat() noexcept {
  seat_.value.store(seat_free, std::memory_order_seq_cst);  // SeatRelease: pairs with InjectCheck, MailCheck
  release_seat_drains();
}

// What every release of the seat runs after it: the N == 1 drain (A4, L4) and the mail.
void registry::release_seat_drains() noexcept {
  if (seat_only(*this) && injector_.has_jobs()) drain_through_seat();  // A4, L4
  if (workers_[0].mailbox.value.load(std::memory_order_seq_cst) != nullptr)  // MailCheck
    drain_mail_through_seat();
}

void registry::release_seat_from_outside(seat_bias& holder) noexcept {
  // Under the seat: count this thread's takes in a row.
  if (last_holder_ == &holder) {
    ++streak_;
  } else {
    last_holder_ = &holder;
    streak_ = 1;
  }
  const bool grant =
      streak_ >= grant_after_.load(std::memory_order_relaxed) && membarrier_available();
  release_seat();
  if (!grant) return;
  // One bias per thread: one it holds on another pool moves here. It is outside that pool
  // (it entered this one from outside every pool), so it may drop it as a revoker would.
  if (registry* const old = holder.reg.load(std::memory_order_relaxed); old != nullptr)
    old->drop_owned_bias(holder, old->seat_word().load(std::memory_order_acquire));
  static_cast<void>(keeper);  // the thread's bias is dropped when it exits (B4)
  std::lock_guard<std::mutex> lock(bias_mutex);
  const std::uint64_t value = biased(next_bias_epoch.fetch_add(1, std::memory_order_relaxed));
  std::uint64_t expected = seat_free;
  if (!seat_.value.compare_exchange_strong(expected, value, std::memory_order_seq_cst))  // BiasGrant
    return;  // somebody took it meanwhile: no bias this time
  holder.seat_value = value;
  holder.word = &seat_.value;
  holder.seat_worker = &workers_[0];
  holder.active.store(0, std::memory_order_relaxed);
  holder.reg.store(this, std::memory_order_relaxed);
  bias_owner_ = &holder;
  streak_ = 0;
}

void registry::drop_bias() noexcept {
  std::lock_guard<std::mutex> lock(bias_mutex);
  if (bias_owner_ == nullptr) return;
  bias_owner_->reg.store(nullptr, std::memory_order_relaxed);
  bias_owner_ = nullptr;
  seat_.value.store(seat_free, std::memory_order_seq_cst);
}

// Worker 0 exists only while a thread holds the seat: mail addressed to it is run by
// whoever can take the seat now (the poster, or the releasing holder), as worker 0.
void registry::drain_mail_through_seat() noexcept {
  worker& w0 = workers_[0];
  drain_as_worker0([&] { return w0.mailbox.value.load(std::memory_order_seq_cst) != nullptr; },
                   [&] { return take_mail(w0); });
}

void registry::drain_through_seat() noexcept {
  drain_as_worker0([&] { return injector_.has_jobs(); }, [&] { return injector_.take(); });
}

// While `has_work()` and the seat can be had (SeatAcquire): acts as worker 0 and runs every
// job `take()` gives, settles what they left on its deque, and releases the seat
// (SeatRelease), then looks again: work that arrived meanwhile found the seat held.
template <class HasWork, class Take>
void registry::drain_as_worker0(HasWork has_work, Take take) noexcept {
  while (has_work() && try_acquire_seat()) {
    worker* const saved = current_worker;
    set_current_worker(&workers_[0]);
    const std::uint32_t entry = workers_[0].deque.drop_all_stolen();
    while (job_header* job = take()) job->execute(job);
    if (seat_left_jobs(workers_[0], entry)) settle_seat();
    set_current_worker(saved);
    seat_.value.store(seat_free, std::memory_order_seq_cst);  // SeatRelease, then re-check
  }
}

// Jobs a seat holder leaves on worker 0's deque (detached tasks, tasks spawned into a scope
// owned elsewhere) would wait there for the next holder: with background threads they are
// published for them; without, the holder runs them before it leaves. No frame lies below a
// holder's own, so every job on the deque is such a job, including one pushed below the
// entry height: a wait may run a job an earlier holder left (a task_group's or a future's
// drain down to its task's slot) and push into the slot it freed. So: every private job
// is published, or with one thread every job runs, whatever the entry height was.
void registry::settle_seat() noexcept {
  worker& w = workers_[0];
  if (num_threads_ > 1) {
    if (w.deque.has_private()) rt::share_all_work(w);
    return;
  }
  run_own_jobs_down_to(w, 0);
}

namespace rt {

bool enter_seat(registry* reg, seat_ticket& ticket) noexcept {
  ticket.caller = current_worker;
  ticket.biased = ticket.caller == nullptr && enter_biased_seat(reg) != nullptr;  // BiasEnter, BiasCheck
  if (!ticket.biased) {
    if (!reg->try_acquire_seat()) return false;  // SeatAcquire
    set_current_worker(&reg->worker_at(0));
  }
  ticket.entry = reg->worker_at(0).deque.drop_all_stolen();
  return true;
}

void leave_seat(registry* reg, const seat_ticket& ticket) noexcept {
  if (ticket.biased) {
    leave_biased_seat(reg, reg->worker_at(0), ticket.entry);  // BiasExit, BiasCheck
    return;
  }
  if (seat_left_jobs(reg->worker_at(0), ticket.entry)) [[unlikely]] reg->settle_seat();
  set_current_worker(ticket.caller);
  if (ticket.caller == nullptr) {
    reg->release_seat_from_outside(this_thread_bias);
    return;
  }
  reg->release_seat();  // SeatRelease, then the drains
}

void settle_seat(registry* reg) noexcept { reg->settle_seat(); }

void drop_revoked_bias(registry* reg) noexcept {
  reg->drop_owned_bias(this_thread_bias, reg->seat_word().load(std::memory_order_acquire));
}

}  // namespace rt

}  // namespace weft::detail
