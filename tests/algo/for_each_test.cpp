// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cstdint>
#include <deque>
#include <execution>
#include <list>
#include <numeric>
#include <string>

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

// The algorithms' passes share one engine instantiation (a type-erased block function), so
// the probe's learned cost must live with the block function's type, not with the engine's.
namespace {
struct add_one_blocks {
  std::vector<int>* v;
  void operator()(std::size_t lo, std::size_t hi) const {
    for (std::size_t i = lo; i < hi; ++i) (*v)[i] += 1;
  }
};
struct double_blocks {
  std::vector<int>* v;
  void operator()(std::size_t lo, std::size_t hi) const {
    for (std::size_t i = lo; i < hi; ++i) (*v)[i] *= 2;
  }
};
}  // namespace

TEST_CASE("each block function type keeps its own learned cost", "[algo][engine]") {
  using weft::detail::site_record;
  using weft::detail::algo::for_blocks_consumer;
  using weft::detail::algo::index_producer;
  std::vector<int> v(100'003, 1);
  REQUIRE(site_record<add_one_blocks>.at(0).ticks_per_item.load() == 0.0f);
  weft::detail::algo::for_blocks(v.size(), add_one_blocks{&v});
  // The first call has nothing learned: it probes with the clock and records what it saw.
  REQUIRE(site_record<add_one_blocks>.at(0).ticks_per_item.load() > 0.0f);
  REQUIRE(site_record<double_blocks>.at(0).ticks_per_item.load() == 0.0f);
  REQUIRE(site_record<index_producer, for_blocks_consumer>.at(0).ticks_per_item.load() == 0.0f);
  weft::detail::algo::for_blocks(v.size(), double_blocks{&v});
  REQUIRE(site_record<double_blocks>.at(0).ticks_per_item.load() > 0.0f);
  REQUIRE(std::all_of(v.begin(), v.end(), [](int x) { return x == 4; }));
}

// The block consumers whose type does not depend on the call run the engine compiled into
// libweft (detail::algo::run_blocks, src/plumbing/blocks.cpp); reductions to other types
// instantiate it where they are called. Both must keep working, and the list must stay wired.
namespace {
template <class T>
constexpr bool reduces_in_libweft =
    requires(std::size_t n, const weft::detail::algo::reduce_blocks_consumer<T>& c,
             const weft::plumbing::split_options& opt) {
      weft::detail::algo::run_blocks(n, c, opt);
    };
}  // namespace

TEST_CASE("fixed block consumers run the compiled engine, others their own", "[algo][engine]") {
  using weft::detail::algo::radix_survey;
  static_assert(reduces_in_libweft<double> && reduces_in_libweft<float>);
  static_assert(reduces_in_libweft<long> && reduces_in_libweft<unsigned long>);
  static_assert(reduces_in_libweft<int> && reduces_in_libweft<unsigned long long>);
  static_assert(reduces_in_libweft<weft::detail::algo::index_pair>);
  static_assert(reduces_in_libweft<radix_survey<std::uint32_t>> &&
                reduces_in_libweft<radix_survey<std::uint64_t>>);
  static_assert(!reduces_in_libweft<short> && !reduces_in_libweft<std::string>);

  const auto threads = GENERATE(1, 2);
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  pool.install([] {
    std::vector<short> s(100'003);
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<short>(i % 7);
    // short: the engine instantiated here; long (count_if's difference type): the library's.
    const short wrapped = weft::reduce(weft::par, s.begin(), s.end(), short{0});
    REQUIRE(wrapped == std::reduce(s.begin(), s.end(), short{0}));
    REQUIRE(weft::count_if(weft::par, s.begin(), s.end(), [](short x) { return x == 3; }) ==
            std::count(s.begin(), s.end(), short{3}));
    const std::vector<double> d(s.begin(), s.end());
    REQUIRE(weft::reduce(weft::par, d.begin(), d.end()) == std::reduce(d.begin(), d.end()));
    const auto [mn, mx] = weft::minmax_element(weft::par, d.begin(), d.end());
    REQUIRE(*mn == 0.0);
    REQUIRE(*mx == 6.0);
    REQUIRE(mn - d.begin() == 0);
    REQUIRE(mx - d.begin() == 100'001);  // the last largest: 100,001 % 7 == 6
  });
}
