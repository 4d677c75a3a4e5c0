// SPDX-License-Identifier: MIT
#include <cmath>
#include <deque>
#include <execution>
#include <functional>
#include <limits>
#include <list>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

// key_of for the element types only these tests use.
int key_of(std::uint64_t x) { return static_cast<int>(x >> 40); }
int key_of(double x) { return static_cast<int>(x); }
using weft_algo::key_of;

// Values to compare a sorted result by (move_only has no copy).
template <class T>
auto values(const std::vector<T>& v) {
  if constexpr (std::is_same_v<T, move_only>) {
    std::vector<int> out;
    for (const auto& m : v) out.push_back(m.value());
    return out;
  } else {
    return v;
  }
}

template <class T>
std::vector<T> input_of(std::size_t n, order o, std::uint64_t salt) {
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    auto v = ordered_input<int>(n, o, salt);
    std::vector<std::uint64_t> out;
    for (const int x : v) out.push_back(static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ull);
    if (o == order::sorted || o == order::reversed || o == order::organ_pipe) {
      std::sort(out.begin(), out.end());
      if (o == order::reversed) std::reverse(out.begin(), out.end());
      if (o == order::organ_pipe) std::reverse(out.begin() + static_cast<std::ptrdiff_t>(n / 2), out.end());
    }
    return out;
  } else if constexpr (std::is_same_v<T, double>) {
    auto v = ordered_input<int>(n, o, salt);
    std::vector<double> out;
    for (const int x : v) out.push_back((x - 500'000) / 7.0);
    return out;
  } else {
    return ordered_input<T>(n, o, salt);
  }
}

// Sorts a copy with `run` and with std::sort / std::stable_sort and compares.
// Every length and order with the default comparator; with another one (`full` false), the
// longest length only in random and reversed order (the test's time budget).
template <class T, class Run, class Comp = std::less<>>
void check_sort(Run run, bool stable, Comp comp = {}, bool full = true) {
  for (const std::size_t n : lengths)
    for (const order o : orders) {
      if (!full && n > 1000 && o != order::random && o != order::reversed) continue;
      CAPTURE(n, name(o));
      auto v = input_of<T>(n, o, 3);
      auto want = clone(v);
      if (stable)
        std::stable_sort(want.begin(), want.end(), comp);
      else
        std::sort(want.begin(), want.end(), comp);
      run(v, comp);
      if (stable) {
        REQUIRE(values(v) == values(want));
      } else {  // equivalent elements may differ (a key comparator): order and multiset
        REQUIRE(std::is_sorted(v.begin(), v.end(), comp));
        auto got = values(v), exp = values(want);
        std::sort(got.begin(), got.end());
        std::sort(exp.begin(), exp.end());
        REQUIRE(got == exp);
      }
    }
}

template <class T>
void check_all_policies(bool stable) {
  const auto par = [stable](auto& v, auto comp) {
    if (stable)
      weft::stable_sort(weft::par, v.begin(), v.end(), comp);
    else
      weft::sort(weft::par, v.begin(), v.end(), comp);
  };
  check_sort<T>(par, stable);
  check_sort<T>(par, stable, [](const T& a, const T& b) { return b < a; }, false);
  if constexpr (!std::is_same_v<T, move_only>) {
    check_sort<T>(par, stable, std::greater<>{}, false);
    check_sort<T>(par, stable, [](const T& a, const T& b) { return key_of(a) % 1000 < key_of(b) % 1000; }, false);
  }
  auto v = input_of<T>(big, order::random, 9);
  auto want = clone(v);
  std::stable_sort(want.begin(), want.end());
  auto w = clone(v);
  if (stable) {
    weft::stable_sort(std::execution::par, v.begin(), v.end());
    weft::stable_sort(weft::seq, w.begin(), w.end());
  } else {
    weft::sort(std::execution::par_unseq, v.begin(), v.end());
    weft::sort(weft::seq, w.begin(), w.end());
  }
  REQUIRE(values(v) == values(want));
  REQUIRE(values(w) == values(want));
}

}  // namespace

TEST_CASE("sort matches std::sort: every length, order, element type and policy", "[algo][sort]") {
  check_all_policies<int>(false);
  check_all_policies<std::uint64_t>(false);
  check_all_policies<double>(false);
  check_all_policies<std::string>(false);
  check_all_policies<move_only>(false);
}

TEST_CASE("stable_sort matches std::stable_sort: every length, order, type and policy",
          "[algo][sort]") {
  check_all_policies<int>(true);
  check_all_policies<std::uint64_t>(true);
  check_all_policies<double>(true);
  check_all_policies<std::string>(true);
  check_all_policies<move_only>(true);
}

TEST_CASE("stable_sort keeps equal keys in input order, radix and comparison paths",
          "[algo][sort]") {
  using pair_t = std::pair<std::uint32_t, std::uint32_t>;
  for (const std::size_t n : lengths) {
    auto rng = weft_test::seeded_rng(n);
    std::vector<pair_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = {static_cast<std::uint32_t>(rng() % 100), static_cast<std::uint32_t>(i)};
    auto want = v;
    std::stable_sort(want.begin(), want.end(), [](const pair_t& a, const pair_t& b) { return a.first < b.first; });
    auto a = v, b = v, c = v;
    weft::stable_sort(a, {}, &pair_t::first);  // radix on the projected key
    weft::stable_sort(weft::par, b.begin(), b.end(), [](const pair_t& x, const pair_t& y) { return x.first < y.first; });
    weft::stable_sort(c, std::ranges::less{}, [](const pair_t& p) { return p.first; });  // not noexcept: comparison
    REQUIRE(a == want);
    REQUIRE(b == want);
    REQUIRE(c == want);
    auto d = v;
    std::stable_sort(want.begin(), want.end(), [](const pair_t& x, const pair_t& y) { return x.first > y.first; });
    std::stable_sort(d.begin(), d.end(), [](const pair_t& x, const pair_t& y) { return x.first > y.first; });
    auto e = v;
    weft::stable_sort(e, std::ranges::greater{}, &pair_t::first);
    REQUIRE(e == d);
  }
}

TEST_CASE("sort: range overloads, projections, signed and floating-point keys", "[algo][sort]") {
  auto rng = weft_test::seeded_rng(5);
  std::vector<long> l(big);
  for (auto& x : l) x = static_cast<long>(rng()) >> static_cast<int>(rng() % 60);
  auto want = l;
  std::sort(want.begin(), want.end());
  auto got = l;
  weft::sort(got);
  REQUIRE(got == want);
  weft::sort(got, std::ranges::greater{});
  std::sort(want.begin(), want.end(), std::greater<>{});
  REQUIRE(got == want);

  std::vector<float> f(50000);
  for (auto& x : f) x = static_cast<float>(static_cast<std::int64_t>(rng() % 2001) - 1000) / 3.0f;
  f[7] = std::numeric_limits<float>::infinity();
  f[8] = -std::numeric_limits<float>::infinity();
  auto fw = f;
  std::sort(fw.begin(), fw.end());
  weft::sort(weft::par, f.begin(), f.end());
  REQUIRE(f == fw);

  // -0.0 and +0.0 are equivalent: stable_sort keeps their input order.
  std::vector<double> z(40000);
  for (std::size_t i = 0; i < z.size(); ++i) z[i] = (i % 3 == 0) ? -0.0 : (i % 3 == 1 ? 0.0 : 1.0 * (i % 7));
  auto zw = z;
  std::stable_sort(zw.begin(), zw.end());
  weft::stable_sort(weft::par, z.begin(), z.end());
  for (std::size_t i = 0; i < z.size(); ++i) REQUIRE(std::signbit(z[i]) == std::signbit(zw[i]));
  REQUIRE(z == zw);

  struct rec {
    std::string name;
    int age;
  };
  std::vector<rec> people;
  for (int i = 0; i < 5000; ++i) people.push_back({std::to_string(i), static_cast<int>(rng() % 90)});
  weft::stable_sort(people, {}, &rec::age);
  for (std::size_t i = 1; i < people.size(); ++i) {
    REQUIRE(people[i - 1].age <= people[i].age);
    if (people[i - 1].age == people[i].age) REQUIRE(std::stoi(people[i - 1].name) < std::stoi(people[i].name));
  }
  weft::sort(people, std::ranges::greater{}, &rec::name);
  REQUIRE(std::is_sorted(people.begin(), people.end(), [](const rec& a, const rec& b) { return a.name > b.name; }));
}

TEST_CASE("sort: skewed radix keys (one bucket holds most of the input)", "[algo][sort]") {
  auto rng = weft_test::seeded_rng(11);
  std::vector<std::uint64_t> v(200003);
  for (auto& x : v) x = rng() % 10 == 0 ? rng() : rng() % 1000;
  auto want = v;
  std::sort(want.begin(), want.end());
  auto a = v;
  weft::sort(weft::par, a.begin(), a.end());
  REQUIRE(a == want);
  weft::stable_sort(weft::par, v.begin(), v.end());
  REQUIRE(v == want);
}

TEST_CASE("sort over weaker iterators and deques", "[algo][sort]") {
  std::deque<int> d;
  auto rng = weft_test::seeded_rng(2);
  for (int i = 0; i < 30000; ++i) d.push_back(static_cast<int>(rng() % 1000));
  auto want = d;
  std::stable_sort(want.begin(), want.end());
  auto a = d;
  weft::sort(weft::par, a.begin(), a.end());
  REQUIRE(a == want);
  weft::stable_sort(weft::par, d.begin(), d.end(), std::less<int>{});
  REQUIRE(d == want);
}
