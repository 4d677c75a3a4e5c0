// SPDX-License-Identifier: MIT
// The caller seat's bias (src/sched/seat.cpp): granted to a thread that takes the seat again and
// again, revoked by any other thread that wants it, with its owner outside or inside.
#include <catch2/catch.hpp>

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <utility>

#include "registry.hpp"
#include "weft/detail/fork/detached_impl.hpp"
#include "weft/detail/fork/join_impl.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"

namespace rt = weft::detail::rt;
using weft::detail::registry;

namespace {

// Whether this kernel lets weft bias the seat (otherwise it never does, and the seat works
// by SeatAcquire / SeatRelease alone).
bool bias_possible() {
  const long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  return cmds >= 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0;
}

constexpr std::uint64_t kind(std::uint64_t seat) { return seat < 2 ? seat : 2 + (seat & 1); }
constexpr std::uint64_t free_seat = 0, held_seat = 1, biased_seat = 2, revoking_seat = 3;

// Takes and leaves the seat `times` times from the calling thread (outside every pool).
void take_seat(registry* reg, int times) {
  for (int i = 0; i < times; ++i) {
    rt::seat_ticket ticket{};
    REQUIRE(rt::enter_seat(reg, ticket));
    REQUIRE(weft::detail::current_worker == &reg->worker_at(0));
    rt::leave_seat(reg, ticket);
    REQUIRE(weft::detail::current_worker == nullptr);
  }
}

// Whether another thread gets the seat of `reg` (and leaves it at once) while this one waits.
bool another_thread_enters(registry* reg) {
  bool entered = false;
  std::thread other([&] {
    rt::seat_ticket t{};
    entered = rt::enter_seat(reg, t);
    if (entered) rt::leave_seat(reg, t);
  });
  other.join();
  return entered;
}

struct pool_of {
  registry* reg;
  explicit pool_of(std::size_t threads) : reg(make(threads)) {}
  static registry* make(std::size_t threads) {
    rt::pool_config config;
    config.num_threads = threads;
    return rt::create_registry(std::move(config));
  }
  ~pool_of() { rt::destroy_registry(reg); }
  std::uint64_t seat() const { return kind(reg->seat_word().load()); }
};

}  // namespace

TEST_CASE("the seat is biased to a thread that takes it again and again", "[seat][requirement]") {
  for (std::size_t threads : {1, 2}) {
    pool_of pool(threads);
    take_seat(pool.reg, 1);
    REQUIRE(pool.seat() == free_seat);  // one take earns nothing
    take_seat(pool.reg, 20);
    if (!bias_possible()) {
      REQUIRE(pool.seat() == free_seat);
      continue;
    }
    REQUIRE(pool.seat() == biased_seat);
    rt::seat_ticket ticket{};
    REQUIRE(rt::enter_seat(pool.reg, ticket));  // through the bias
    REQUIRE(ticket.biased);
    REQUIRE(pool.seat() == biased_seat);  // entering writes nothing shared but its own flag
    rt::leave_seat(pool.reg, ticket);
  }
}

TEST_CASE("another thread revokes a bias whose owner is outside", "[seat][requirement]") {
  pool_of pool(1);
  take_seat(pool.reg, 20);
  bool entered = false, biased = true;
  std::uint64_t seat_while_in = free_seat;
  std::thread other([&] {
    rt::seat_ticket ticket{};
    entered = rt::enter_seat(pool.reg, ticket);  // the owner is outside: the seat is free for it
    if (!entered) return;
    biased = ticket.biased;
    seat_while_in = pool.seat();
    rt::leave_seat(pool.reg, ticket);
  });
  other.join();
  REQUIRE(entered);
  REQUIRE_FALSE(biased);
  REQUIRE(seat_while_in == held_seat);
  REQUIRE(pool.seat() == free_seat);
  // The former owner backs off at its next entry and takes the seat by SeatAcquire.
  rt::seat_ticket ticket{};
  REQUIRE(rt::enter_seat(pool.reg, ticket));
  REQUIRE_FALSE(ticket.biased);
  REQUIRE(pool.seat() == held_seat);
  rt::leave_seat(pool.reg, ticket);
}

TEST_CASE("a revocation while the owner is inside leaves the seat to the owner's exit",
          "[seat][requirement]") {
  if (!bias_possible()) return;
  pool_of pool(1);
  take_seat(pool.reg, 20);
  REQUIRE(pool.seat() == biased_seat);
  rt::seat_ticket ticket{};
  REQUIRE(rt::enter_seat(pool.reg, ticket));
  REQUIRE(ticket.biased);
  REQUIRE_FALSE(another_thread_enters(pool.reg));  // the owner is inside
  REQUIRE(pool.seat() == revoking_seat);
  rt::leave_seat(pool.reg, ticket);  // sees the revocation: frees the seat
  REQUIRE(pool.seat() == free_seat);
  take_seat(pool.reg, 1);  // and takes it again by SeatAcquire
}

TEST_CASE("a thread's bias moves to the pool it takes again and again", "[seat][requirement]") {
  if (!bias_possible()) return;
  pool_of a(2);
  pool_of b(2);
  take_seat(a.reg, 20);
  REQUIRE(a.seat() == biased_seat);
  // Each revocation doubles the takes a bias needs (8, then 16, ...): b has none yet.
  take_seat(b.reg, 20);
  REQUIRE(b.seat() == biased_seat);
  REQUIRE(a.seat() == free_seat);  // one bias per thread
}

TEST_CASE("a bias dies with its thread and with its pool", "[seat][requirement]") {
  if (!bias_possible()) return;
  {
    pool_of pool(1);
    std::thread owner([&] {
      for (int i = 0; i < 20; ++i) {
        rt::seat_ticket ticket{};
        if (rt::enter_seat(pool.reg, ticket)) rt::leave_seat(pool.reg, ticket);
      }
    });
    owner.join();
    REQUIRE(pool.seat() == free_seat);  // the exiting thread dropped it
    take_seat(pool.reg, 20);
    REQUIRE(pool.seat() == biased_seat);
  }  // destroyed with the calling thread's bias standing
  pool_of next(1);
  take_seat(next.reg, 1);  // a pool that may reuse the address: the old bias is not honoured
  REQUIRE(next.seat() == free_seat);
}

TEST_CASE("run_in enters a biased seat inline, also when the callable throws or is revoked",
          "[seat][requirement]") {
  if (!bias_possible()) return;
  pool_of pool(1);
  take_seat(pool.reg, 20);
  REQUIRE(pool.seat() == biased_seat);
  auto inside = [&] {
    REQUIRE(weft::detail::current_worker == &pool.reg->worker_at(0));
    REQUIRE(weft::detail::this_thread_bias.active.load() == 1);
    return 7;
  };
  const int got = weft::detail::run_in(pool.reg, inside);
  REQUIRE(got == 7);
  REQUIRE(weft::detail::current_worker == nullptr);
  REQUIRE(weft::detail::this_thread_bias.active.load() == 0);
  REQUIRE(pool.seat() == biased_seat);
  auto throws = [] { throw std::runtime_error("from the seat"); };
  REQUIRE_THROWS_AS(weft::detail::run_in(pool.reg, throws), std::runtime_error);
  REQUIRE(weft::detail::current_worker == nullptr);
  REQUIRE(pool.seat() == biased_seat);  // an exception is not a revocation
  auto revoked_inside = [&] {
    REQUIRE_FALSE(another_thread_enters(pool.reg));  // the owner is inside
    REQUIRE(pool.seat() == revoking_seat);
  };
  weft::detail::run_in(pool.reg, revoked_inside);
  REQUIRE(pool.seat() == free_seat);  // freed on the way out
  REQUIRE(weft::detail::this_thread_bias.reg.load() == nullptr);
}

namespace {

// Holds the pool's one background thread in a detached task until `release` is set, so that
// nothing is stolen from worker 0 meanwhile.
struct background_held {
  registry* reg;
  std::atomic<bool> started{false};
  std::atomic<bool> release{false};
  explicit background_held(registry* r) : reg(r) {
    weft::detail::spawn_detached(reg, [this] {  // injected: the calling thread is outside
      started.store(true);
      while (!release.load()) std::this_thread::yield();
    });
    while (!started.load()) std::this_thread::yield();
  }
  ~background_held() {
    release.store(true);
    rt::wait_idle_blocking(reg);
  }
};

}  // namespace

// A holder that leaves a detached task on worker 0's deque leaves its slot behind once a
// background thread steals it; the next holder drops such slots when all were stolen, or
// worker 0's deque would fill up (and every fork made on the seat would run inline).
TEST_CASE("worker 0's deque does not keep the slots of jobs stolen from it", "[seat]") {
  pool_of pool(2);
  const int rounds = 5000;  // past the deque's capacity (4096)
  std::atomic<int> ran{0};
  for (int i = 0; i < rounds; ++i) {
    auto leave_a_task = [&] { weft::detail::spawn_detached(pool.reg, [&] { ++ran; }); };
    weft::detail::run_in(pool.reg, leave_a_task);
    rt::wait_idle_blocking(pool.reg);  // so the background thread stole it
  }
  REQUIRE(ran.load() == rounds);
  std::uint32_t height = ~std::uint32_t{0};
  auto entry_height = [&] { height = pool.reg->worker_at(0).deque.size_for_owner(); };
  weft::detail::run_in(pool.reg, entry_height);
  REQUIRE(height == 0);
}

// A holder may run a job an earlier holder left below its entry height (a future's or a
// task group's drain reaches down to its task) and push a job of its own into the freed
// slot: the deque's height is back at the entry height, and that job is still private.
// Leaving, it must publish it, or no background thread would ever see it.
TEST_CASE("a holder's private job below its entry height is settled when it leaves", "[seat]") {
  pool_of pool(2);
  std::atomic<int> ran{0};
  {
    background_held hold(pool.reg);
    auto leave_a_task = [&] { weft::detail::spawn_detached(pool.reg, [&] { ++ran; }); };
    weft::detail::run_in(pool.reg, leave_a_task);  // published on the way out, not stolen
    std::uint32_t entry = 0;
    auto run_below_and_push = [&] {
      weft::detail::worker& w0 = pool.reg->worker_at(0);
      entry = w0.deque.size_for_owner();
      weft::detail::run_own_jobs_down_to(w0, 0);  // the earlier holder's task
      weft::detail::spawn_detached(pool.reg, [&] { ++ran; });
      REQUIRE(w0.deque.size_for_owner() == entry);
      REQUIRE(w0.deque.has_private());
    };
    weft::detail::run_in(pool.reg, run_below_and_push);
    REQUIRE(entry == 1);
    REQUIRE(ran.load() == 1);
  }  // the background thread is released, then wait_idle: it must find the second task
  REQUIRE(ran.load() == 2);
}
