// SPDX-License-Identifier: MIT
// weft::sort and its relatives against std::sort.
#include "sort_support.hpp"

TEST_CASE("sort matches std::sort: every length, order, element type and policy", "[algo][sort]") {
  check_all_types<false>();
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
