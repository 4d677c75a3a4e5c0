// SPDX-License-Identifier: MIT
// A pool's shared state: its workers, the sleep module, the injector and the caller seat.
// Design: docs/design.md#pools-and-seats   Protocol: docs/protocols/injection.md
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "injector.hpp"
#include "numa.hpp"
#include "sleep.hpp"
#include "weft/detail/sched/latch.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/seat_bias.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft::detail {

class registry;

// Takes one job from w's mailbox (owner only): the whole stack at once (M2), the rest pushed
// back. Broadcast jobs come first: their broadcaster waits for every worker.
job_header* take_mail(worker& w) noexcept;

// A pool of N seats. Seat 0 is the caller seat: a thread that is not a worker of this pool
// and calls into it (weft::join from main, install) takes it for the duration of the call
// and works as worker 0, so a small call from outside starts at once instead of waiting
// for a sleeping thread to wake. Seats 1..N-1 are background threads. When seat 0 is
// taken, other outside callers inject their work and block; a pool with no background
// threads (N == 1) has the seat holder drain the injector on release (the Dekker pair
// SeatRelease / InjectCheck in docs/protocols/injection.md).
class registry {
 public:
  explicit registry(rt::pool_config config);
  ~registry();
  registry(const registry&) = delete;
  registry& operator=(const registry&) = delete;

  std::size_t num_threads() const noexcept { return num_threads_; }
  worker& worker_at(std::size_t i) noexcept { return workers_[i]; }
  // Called by the thread whose C1 made the pool hungry (G2, sched/worker.hpp): every
  // worker's next join takes the slow path and sees the hunger.
  void close_join_gates() noexcept {
    for (std::size_t i = 0; i < num_threads_; ++i) workers_[i].deque.poke_gate();
  }
  sleep_module& sleep() noexcept { return sleep_; }
  injector& inject_queue() noexcept { return injector_; }
  // Detached FIFO spawns from threads outside the pool (worker::fifo for its workers).
  fifo_queue& outside_fifo() noexcept { return outside_fifo_.value; }

  // The caller seat (src/sched/seat.cpp, docs/protocols/injection.md). Whether it is taken for
  // the calling thread: held, or reserved for another thread's bias.
  bool seat_taken() const noexcept;
  // SeatAcquire; a seat reserved for another thread's bias is revoked first (BiasRevoke).
  bool try_acquire_seat() noexcept;
  // SeatRelease, then the drains.
  void release_seat() noexcept;
  // The outside thread `holder` leaves the seat it took normally: releases it, and reserves
  // it for that thread's bias when the thread took it often enough in a row.
  void release_seat_from_outside(seat_bias& holder) noexcept;
  // A bias still reserved on this pool is dropped (its destructor: nobody is inside).
  void drop_bias() noexcept;
  // Held by a thread inside (won by CAS, or its bias being revoked while it is inside):
  // that thread drains on its way out.
  bool seat_held() const noexcept;
  // The owner of bias `b` leaves it for good, having read the seat word `seen`.
  void drop_owned_bias(seat_bias& b, std::uint64_t seen) noexcept;
  // What every release of the seat runs after it: the N == 1 drain and the mail.
  void release_seat_drains() noexcept;
  std::atomic<std::uint64_t>& seat_word() noexcept { return seat_.value; }
  // Before the seat holder stops acting as worker 0: what it left on the deque.
  void settle_seat() noexcept;
  // Runs worker 0's mail on the calling thread as worker 0 while the seat can be had.
  void drain_mail_through_seat() noexcept;
  // Runs injected jobs on the calling thread as worker 0 while the seat can be had.
  void drain_through_seat() noexcept;

  void background_main(std::uint32_t index) noexcept;
  // What the pool was built with (num_threads resolved). Read-only after construction.
  const rt::pool_config& config() const noexcept { return config_; }
  // The NUMA node thread `index` is placed on (pool_options::numa), or -1.
  int numa_node_of(std::size_t index) const noexcept {
    return numa_node_.empty() ? -1 : numa_node_[index];
  }

  // Detached tasks (docs/protocols/spawn.md#detached-tasks).
  void detached_begin() noexcept { detached_.value.fetch_add(1, std::memory_order_relaxed); }  // D1
  void detached_end() noexcept;
  bool detached_idle() const noexcept { return detached_.value.load(std::memory_order_acquire) == 0; }  // D3
  // A waiter for the count to reach 0, on the waiting thread's stack.
  struct idle_waiter {
    job_latch& latch;
    idle_waiter* next = nullptr;
  };
  // Registers `waiter` to have its latch set when the count reaches 0; false (nothing
  // registered) if it is 0 already.
  bool add_idle_waiter(idle_waiter& waiter) noexcept;
  void report_task_exception(std::exception_ptr error) noexcept;

 private:
  rt::pool_config config_;
  std::size_t num_threads_;
  std::unique_ptr<worker[]> workers_;
  sleep_module sleep_;
  injector injector_;
  cache_padded<fifo_queue> outside_fifo_;
  // A revoker: see seat.cpp. True when the seat is no longer reserved.
  bool revoke_bias(std::uint64_t seen) noexcept;
  // The two drains' loop (seat.cpp).
  template <class HasWork, class Take>
  void drain_as_worker0(HasWork has_work, Take take) noexcept;

  // 0 free, 1 held, biased(E) / revoking(E) for the bias of epoch E (seat.cpp).
  cache_padded<std::atomic<std::uint64_t>> seat_{0};
  // The thread the seat is reserved for: under bias_mutex (seat.cpp).
  seat_bias* bias_owner_ = nullptr;
  // Written by seat holders only (under the seat): who took it last, how many times in a row.
  const seat_bias* last_holder_ = nullptr;
  std::uint32_t streak_ = 0;
  // Takes in a row that earn a bias; doubled by each revocation (a hint, relaxed).
  std::atomic<std::uint32_t> grant_after_{8};
  std::vector<std::unique_ptr<job_latch>> terminate_;
  cache_padded<std::atomic<std::size_t>> detached_{0};
  std::mutex idle_mutex_;
  idle_waiter* idle_waiters_ = nullptr;  // guarded by idle_mutex_
  std::vector<pthread_t> threads_;
  // NUMA placement: each thread's node (empty when not placed), and the topology that bound
  // the workers' queue memory, kept to give it back to the default policy at the end.
  std::vector<int> numa_node_;
  std::unique_ptr<numa_topology> numa_topology_;
};

}  // namespace weft::detail
