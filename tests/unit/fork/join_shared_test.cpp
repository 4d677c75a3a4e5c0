// SPDX-License-Identifier: MIT
// detail::join_eagerly_shared, the splitting engine's fork for long items (white-box: a
// join that publishes its second side before the first starts).
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <atomic>
#include <thread>

#include "test_support.hpp"

TEST_CASE("an eagerly shared join offers b before a starts, with no thread idle yet",
          "[join][plumbing]") {
  // weft::detail::join_eagerly_shared, the splitting engine's fork for long items. The other
  // thread is busy in `hold` when the inner join forks, so a plain join would keep `b`
  // private; `hold` returns once `a` has started, and the other thread turns idle while `a`
  // waits for `b` without ever offering work. The test ends only if `b` was published at
  // the fork (with weft::join in its place it hangs: the ctest timeout is the failure).
  weft::thread_pool pool({.num_threads = 2});
  for (int round = 0; round < 200; ++round) {
    std::atomic<bool> a_started{false}, b_ran{false};
    pool.install([&] {
      weft_test::while_other_worker_holds(
          [&] {
            auto [x, y] = weft::detail::join_eagerly_shared(
                [&] {
                  a_started.store(true, std::memory_order_release);
                  while (!b_ran.load(std::memory_order_acquire)) std::this_thread::yield();
                  return 1;
                },
                [&] {
                  b_ran.store(true, std::memory_order_release);
                  return 2;
                });
            CHECK(x + y == 3);
          },
          [&] { return a_started.load(std::memory_order_acquire); });
    });
    CHECK(b_ran.load());
  }
  // Outside every pool it is a plain join.
  auto [x, y] = weft::detail::join_eagerly_shared([] { return 1; }, [] { return 2; });
  CHECK(x + y == 3);
}
