// SPDX-License-Identifier: MIT
#include <deque>
#include <execution>
#include <list>

#include "algo_support.hpp"

using namespace weft_algo;

TEST_CASE("execution policies are recognised, weft's and the standard ones", "[algo]") {
  STATIC_REQUIRE(weft::is_execution_policy_v<decltype(weft::seq)>);
  STATIC_REQUIRE(weft::is_execution_policy_v<decltype(weft::par)>);
  STATIC_REQUIRE(weft::is_execution_policy_v<decltype(weft::par_unseq)&>);
  STATIC_REQUIRE(weft::is_execution_policy_v<decltype(std::execution::seq)>);
  STATIC_REQUIRE(weft::is_execution_policy_v<decltype(std::execution::par)>);
  STATIC_REQUIRE(weft::is_execution_policy_v<const std::execution::parallel_unsequenced_policy&>);
  STATIC_REQUIRE_FALSE(weft::is_execution_policy_v<int>);
  STATIC_REQUIRE_FALSE(weft::is_execution_policy_v<std::vector<int>>);
}

TEST_CASE("for_each and for_each_n visit every element once, with every policy", "[algo]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    std::vector<int> v(n, 0);
    weft::for_each(weft::par, v.begin(), v.end(), [](int& x) { ++x; });
    weft::for_each(std::execution::par, v.begin(), v.end(), [](int& x) { ++x; });
    weft::for_each(weft::seq, v.begin(), v.end(), [](int& x) { ++x; });
    weft::for_each(v, [](int& x) { ++x; });
    const auto end = weft::for_each_n(weft::par_unseq, v.begin(), n / 2, [](int& x) { ++x; });
    REQUIRE(end == v.begin() + static_cast<std::ptrdiff_t>(n / 2));
    for (std::size_t i = 0; i < n; ++i) REQUIRE(v[i] == (i < n / 2 ? 5 : 4));
  }
}

TEST_CASE("for_each over weaker iterators runs sequentially and in order", "[algo]") {
  std::list<int> l{1, 2, 3, 4};
  std::vector<int> seen;
  weft::for_each(weft::par, l.begin(), l.end(), [&](int x) { seen.push_back(x); });
  REQUIRE(seen == std::vector<int>{1, 2, 3, 4});
  std::deque<std::string> d(1000, "a");
  weft::for_each(weft::par, d.begin(), d.end(), [](std::string& s) { s += "b"; });
  REQUIRE(std::all_of(d.begin(), d.end(), [](const std::string& s) { return s == "ab"; }));
}

TEST_CASE("for_each: an exception from f reaches the caller, the pool stays usable", "[algo]") {
  std::vector<move_only> v = random_input<move_only>(big, 1);
  for (const std::size_t at : {std::size_t{0}, std::size_t{777}, big - 4}) {
    std::atomic<std::size_t> calls{0};
    const thrower t{&calls, at};
    REQUIRE_THROWS_AS(weft::for_each(weft::par, v.begin(), v.end(), [&](move_only&) { t.tick(); }),
                      weft_test::test_error);
  }
  long sum = 0;
  std::atomic<long> total{0};
  weft::for_each(weft::par, v.begin(), v.end(),
                 [&](const move_only& m) { total.fetch_add(m.value(), std::memory_order_relaxed); });
  for (const auto& m : v) sum += m.value();
  REQUIRE(total.load() == sum);
}
