// SPDX-License-Identifier: MIT
// The lock-free injector: how threads outside a pool hand it work.
// Protocol: docs/protocols/injection.md
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>

#include "weft/detail/sched/job.hpp"
#include "weft/detail/sync/cache_padded.hpp"

namespace weft::detail {

// ---------------------------------------------------------------------------------------
// Contract. If put(j) (E1) returns and a worker's take() returns j (E2), every write the
// submitter made before E1 is visible after E2. Each put job is returned exactly once:
// by one take(), or by the submitter's reclaim() (which then owns it again).
//
// Roles. submitters (any thread: put, reclaim), takers (pool threads: take).
//
// State. A fixed array of slots, each one job pointer or null; an overflow queue (mutex)
// for the jobs that find every slot taken, so that put never waits for a taker (a pool
// whose only thread is busy, a storm of spawns from outside); and `pending`, the number of
// jobs in slots and overflow, so that the common "nothing injected" check is one relaxed
// load. Slots are written by CAS (null -> job, submitter) and exchange (job -> null,
// taker), so a slot is never lost or doubled.
//
// Invariants.
//   I1  pending >= number of non-null slots that are not being taken right now
//       (pending is incremented after the slot CAS and decremented after the exchange).
//   I2  a job pointer is in at most one slot or the overflow, and only until it is taken
//       or reclaimed.
//
// Ordering table.
// | tag | where          | operation              | order   | pairs with | why
// |-----|----------------|------------------------|---------|------------|-----
// | J1  | put            | CAS slot null -> job   | release | J3         | job contents visible to the taker
// | J2  | put / take     | pending add / sub      | seq_cst | F2/F1      | the sleep re-check reads it (store->load)
// | J3  | take           | exchange slot -> null  | acquire | J1         | see the job contents
// | J4  | take (scan)    | load slot              | relaxed | -          | skip empty slots without writing the line
// | J5  | overflow       | mutex; overflow_size_ store/load | relaxed | mutex | the mutex orders the queue; the size only skips the lock
// The InjectFence (F2 in sleep.hpp) follows every put.
// ---------------------------------------------------------------------------------------
class injector {
 public:
  static constexpr std::size_t slot_count = 64;

  // Never waits. Allocation: only when every slot is taken (the overflow queue grows);
  // std::bad_alloc there is fatal (noexcept).
  void put(job_header* job) noexcept {
    for (auto& slot : slots_) {
      job_header* expected = nullptr;
      if (slot.load(std::memory_order_relaxed) == nullptr &&
          slot.compare_exchange_strong(expected, job, std::memory_order_release,  // J1
                                       std::memory_order_relaxed)) {
        pending_.value.fetch_add(1, std::memory_order_seq_cst);  // J2
        return;
      }
    }
    put_overflow_cold(job);
  }

  // Takes back `job` if no worker took it yet.
  bool reclaim(job_header* job) noexcept {
    if (overflow_size_.load(std::memory_order_relaxed) != 0) {  // J5
      std::lock_guard<std::mutex> lock(overflow_mutex_);
      for (auto it = overflow_.begin(); it != overflow_.end(); ++it) {
        if (*it != job) continue;
        overflow_.erase(it);
        overflow_size_.store(overflow_.size(), std::memory_order_relaxed);
        pending_.value.fetch_sub(1, std::memory_order_seq_cst);  // J2
        return true;
      }
    }
    for (auto& slot : slots_) {
      job_header* expected = job;
      if (slot.load(std::memory_order_relaxed) == job &&
          slot.compare_exchange_strong(expected, nullptr, std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
        pending_.value.fetch_sub(1, std::memory_order_seq_cst);  // J2
        return true;
      }
    }
    return false;
  }

  bool has_jobs() const noexcept { return pending_.value.load(std::memory_order_seq_cst) > 0; }

  job_header* take() noexcept {
    if (pending_.value.load(std::memory_order_relaxed) == 0) return nullptr;
    for (auto& slot : slots_) {
      if (slot.load(std::memory_order_relaxed) == nullptr) continue;  // J4
      if (job_header* job = slot.exchange(nullptr, std::memory_order_acquire)) {  // J3
        pending_.value.fetch_sub(1, std::memory_order_seq_cst);  // J2
        return job;
      }
    }
    if (overflow_size_.load(std::memory_order_relaxed) == 0) return nullptr;  // J5
    return take_overflow_cold();
  }

 private:
  WEFT_COLD void put_overflow_cold(job_header* job) noexcept {
    {
      std::lock_guard<std::mutex> lock(overflow_mutex_);
      overflow_.push_back(job);
      overflow_size_.store(overflow_.size(), std::memory_order_relaxed);  // J5
    }
    pending_.value.fetch_add(1, std::memory_order_seq_cst);  // J2
  }

  WEFT_COLD job_header* take_overflow_cold() noexcept {
    std::lock_guard<std::mutex> lock(overflow_mutex_);
    if (overflow_.empty()) return nullptr;
    job_header* job = overflow_.front();
    overflow_.pop_front();
    overflow_size_.store(overflow_.size(), std::memory_order_relaxed);  // J5
    pending_.value.fetch_sub(1, std::memory_order_seq_cst);  // J2
    return job;
  }

  cache_padded<std::atomic<std::int64_t>> pending_{0};
  std::array<std::atomic<job_header*>, slot_count> slots_{};
  std::atomic<std::size_t> overflow_size_{0};
  std::mutex overflow_mutex_;
  std::deque<job_header*> overflow_;
};

}  // namespace weft::detail
