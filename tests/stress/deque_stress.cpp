// SPDX-License-Identifier: MIT
// One owner and several thieves over millions of items: every item taken exactly once.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/detail/sync/split_deque.hpp"

using weft::detail::split_deque;

TEST_CASE("owner push/publish/pop against 3 thieves: exactly once", "[deque][stress]") {
  const std::uint64_t total = weft_test::stress_iters(2'000'000);
  split_deque d(1024);
  std::vector<std::atomic<std::uint8_t>> taken(total);
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> stolen_sum{0}, stolen_count{0};

  auto thief = [&] {
    std::uint64_t sum = 0, count = 0;
    while (!done.load(std::memory_order_acquire)) {
      const auto r = d.steal();
      if (r.status != split_deque::steal_status::success) continue;
      const auto i = reinterpret_cast<std::uintptr_t>(r.item) - 1;
      taken[i].fetch_add(1, std::memory_order_relaxed);
      sum += i;
      ++count;
    }
    stolen_sum.fetch_add(sum);
    stolen_count.fetch_add(count);
  };
  std::vector<std::thread> thieves;
  for (int t = 0; t < 3; ++t) thieves.emplace_back(thief);

  auto rng = weft_test::seeded_rng(7);
  std::uint64_t next = 0, popped_sum = 0, popped_count = 0;
  auto pop_one = [&] {
    if (void* item = d.pop()) {
      const auto i = reinterpret_cast<std::uintptr_t>(item) - 1;
      taken[i].fetch_add(1, std::memory_order_relaxed);
      popped_sum += i;
      ++popped_count;
    }
  };
  while (next < total) {
    const unsigned burst = 1 + rng() % 16;
    for (unsigned k = 0; k < burst && next < total; ++k) {
      if (!d.push(reinterpret_cast<void*>(++next))) {
        --next;
        break;
      }
    }
    if (rng() % 3 == 0) d.publish();
    const unsigned pops = rng() % 20;
    for (unsigned k = 0; k < pops && !d.empty(); ++k) pop_one();
  }
  while (!d.empty()) pop_one();
  done.store(true, std::memory_order_release);
  for (auto& t : thieves) t.join();

  REQUIRE(popped_count + stolen_count.load() == total);
  REQUIRE(popped_sum + stolen_sum.load() == total * (total - 1) / 2);
  std::uint64_t wrong = 0;
  for (auto& t : taken) wrong += t.load() != 1;
  REQUIRE(wrong == 0);
}
