// SPDX-License-Identifier: MIT
// Helpers shared by the tests: stress iteration counts, seeded randomness, bounded polling.
#pragma once

#include <pthread.h>

#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <thread>

#include "weft/join.hpp"
#include "weft/pool.hpp"

namespace weft_test {

// Iterations for a stress loop: WEFT_STRESS_ITERS when set, else `fallback`.
inline std::uint64_t stress_iters(std::uint64_t fallback) {
  if (const char* env = std::getenv("WEFT_STRESS_ITERS"); env != nullptr && *env != '\0') {
    const auto v = std::strtoull(env, nullptr, 10);
    if (v > 0) return v;
  }
  return fallback;
}

// True in a sanitizer build (GCC's and clang's spellings): tests whose largest inputs only
// repeat what the smaller ones check, slowed ten times, may leave those out there.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
inline constexpr bool under_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
inline constexpr bool under_sanitizer = true;
#else
inline constexpr bool under_sanitizer = false;
#endif
#else
inline constexpr bool under_sanitizer = false;
#endif

// Runs f inside fresh pools of 1, 2 and 7 threads (7 on a 2-core machine: oversubscribed),
// as f(threads) when f takes the pool's size, else as f().
template <class F>
void on_every_pool(F f) {
  for (std::size_t threads : {std::size_t{1}, std::size_t{2}, std::size_t{7}}) {
    weft::thread_pool pool({.num_threads = threads});
    if constexpr (std::invocable<F&, std::size_t>)
      pool.install([&] { f(threads); });
    else
      pool.install([&] { f(); });
  }
}

inline std::mt19937_64 seeded_rng(std::uint64_t salt = 0) { return std::mt19937_64(0x5EEDu + salt); }

// Polls `cond` with yields, at most `max_rounds` times: "eventually" without a clock.
template <class Cond>
bool eventually(Cond&& cond, std::uint64_t max_rounds = 50'000'000) {
  for (std::uint64_t i = 0; i < max_rounds; ++i) {
    if (cond()) return true;
    std::this_thread::yield();
  }
  return cond();
}

// Runs f() on a fresh thread with a 256 MiB stack and waits: deep-recursion tests must not
// depend on the main thread's stack limit (and sanitizer frames are several times larger).
template <class F>
void run_on_big_stack(F&& f) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{256} << 20);
  pthread_t tid;
  auto* fn = &f;
  auto entry = [](void* arg) -> void* {
    (*static_cast<decltype(fn)>(arg))();
    return nullptr;
  };
  if (pthread_create(&tid, &attr, entry, fn) != 0) std::abort();
  pthread_join(tid, nullptr);
  pthread_attr_destroy(&attr);
}

// Inside a 2-thread pool: runs `body` on this worker while the other worker runs `hold`, the
// one fork offered to it, until `release()` returns true. `body` starts only once `hold` has,
// so no thread of the pool is idle from then until `release()` holds.
template <class Body, class Release>
void while_other_worker_holds(Body&& body, Release&& release) {
  std::atomic<bool> hold_started{false};
  weft::join(
      [&] {
        while (!hold_started.load(std::memory_order_acquire)) {
          weft::offer_work();
          std::this_thread::yield();
        }
        body();
      },
      [&] {
        hold_started.store(true, std::memory_order_release);
        while (!release()) std::this_thread::yield();
      });
}

struct test_error {
  int depth;
};

}  // namespace weft_test
