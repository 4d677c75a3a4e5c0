// SPDX-License-Identifier: MIT
// Outside threads running pipelines and algorithms at once, on the global pool and on a
// shared thread_pool: the engine's shared state (each pipeline's learned cost, the probe
// ticket, the search and cancellation flags) meets several callers, some of them throwing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/weft.hpp"

namespace {

// One round of checks over `v`; returns how many results differ from the sequential ones.
// Items are in [-1000, 1000], so `marker` occurs only where the round puts it.
int one_round(std::vector<std::int64_t> v, std::mt19937_64& rng) {
  constexpr std::int64_t marker = 5000;
  int wrong = 0;
  const std::size_t n = v.size();

  const std::int64_t total = std::accumulate(v.begin(), v.end(), std::int64_t{0});
  if (weft::iter(v).map([](std::int64_t x) { return 3 * x; }).sum() != 3 * total) ++wrong;

  std::vector<std::int64_t> evens;
  std::copy_if(v.begin(), v.end(), std::back_inserter(evens),
               [](std::int64_t x) { return x % 2 == 0; });
  if (weft::iter(v).filter([](std::int64_t x) { return x % 2 == 0; }).to_vector() != evens)
    ++wrong;

  auto sorted = v;
  std::sort(sorted.begin(), sorted.end());
  auto ours = v;
  weft::sort(weft::par, ours.begin(), ours.end());
  if (ours != sorted) ++wrong;

  std::vector<std::int64_t> scanned(n), expected(n);
  std::inclusive_scan(v.begin(), v.end(), expected.begin());
  weft::inclusive_scan(weft::par, v.begin(), v.end(), scanned.begin());
  if (scanned != expected) ++wrong;

  if (n == 0) return wrong;
  const std::size_t pos = rng() % n;
  v[pos] = marker;
  if (weft::iter(v).position_first([](std::int64_t x) { return x == marker; }) !=
      std::optional<std::size_t>(pos))
    ++wrong;
  if (!weft::iter(v).any([](std::int64_t x) { return x == marker; })) ++wrong;

  // A throw from one item reaches this caller, whichever thread ran the item.
  bool caught = false;
  try {
    weft::iter(v).for_each([](std::int64_t x) {
      if (x == marker) throw std::runtime_error("marker");
    });
  } catch (const std::runtime_error&) {
    caught = true;
  }
  if (!caught) ++wrong;

  // Two pipelines forked against each other.
  auto [lo_sum, hi_sum] = weft::join(
      [&] { return weft::iter(v).take(pos).sum(); },
      [&] { return weft::iter(v).skip(pos + 1).sum(); });
  if (lo_sum + hi_sum + marker != std::accumulate(v.begin(), v.end(), std::int64_t{0}))
    ++wrong;
  return wrong;
}

std::vector<std::int64_t> random_items(std::size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::int64_t> item(-1000, 1000);
  std::vector<std::int64_t> v(n);
  for (auto& x : v) x = item(rng);
  return v;
}

}  // namespace

TEST_CASE("outside threads run pipelines and algorithms at once", "[external][stress][iter]") {
  // Sizes from the inline path (no pool) to several leaves per thread.
  constexpr std::size_t sizes[] = {0, 1, 100, 5'000, 100'000};
  // WEFT_STRESS_ITERS is sized for the other files' loops (the TSan stage sets 200, ASan
  // 2000); a round here costs about ten of theirs.
  const std::uint64_t rounds = std::max<std::uint64_t>(1, weft_test::stress_iters(600) / 10);
  weft::thread_pool shared({.num_threads = 2});
  std::atomic<int> wrong{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      auto rng = weft_test::seeded_rng(static_cast<std::uint64_t>(t));
      for (std::uint64_t r = 0; r < rounds; ++r) {
        const auto v = random_items(sizes[(r + static_cast<std::uint64_t>(t)) % 5], rng);
        // Callers 0 and 1 use the global pool, 2 and 3 the shared pool.
        const int w = t < 2 ? one_round(v, rng) : shared.install([&] { return one_round(v, rng); });
        wrong.fetch_add(w);
      }
    });
  for (auto& c : callers) c.join();
  REQUIRE(wrong.load() == 0);
  // Both pools still serve a plain call afterwards.
  REQUIRE(weft::range(0, 1000).sum() == 499'500);
  REQUIRE(shared.install([] { return weft::range(0, 1000).sum(); }) == 499'500);
}
