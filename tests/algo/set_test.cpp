// SPDX-License-Identifier: MIT
// Operations on sorted ranges (algorithm/set.hpp) against std::.
#include <execution>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

template <class T>
void check_sets(std::size_t n1, std::size_t n2, int spread, std::uint64_t salt) {
  auto a = random_input<T>(n1, salt, spread);
  auto b = random_input<T>(n2, salt + 1, spread);
  const auto less = [](const T& x, const T& y) { return key_of(x) < key_of(y); };
  std::sort(a.begin(), a.end(), less);
  std::sort(b.begin(), b.end(), less);
  std::vector<T> got(n1 + n2), want(n1 + n2);
  const auto same = [&](auto g, auto w) {
    REQUIRE(g - got.begin() == w - want.begin());
    REQUIRE(std::equal(got.begin(), g, want.begin(), w));
  };
  const auto pols = [&](auto pol) {
    same(weft::set_union(pol, a.begin(), a.end(), b.begin(), b.end(), got.begin(), less),
         std::set_union(a.begin(), a.end(), b.begin(), b.end(), want.begin(), less));
    same(weft::set_intersection(pol, a.begin(), a.end(), b.begin(), b.end(), got.begin(), less),
         std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), want.begin(), less));
    same(weft::set_difference(pol, a.begin(), a.end(), b.begin(), b.end(), got.begin(), less),
         std::set_difference(a.begin(), a.end(), b.begin(), b.end(), want.begin(), less));
    same(weft::set_symmetric_difference(pol, a.begin(), a.end(), b.begin(), b.end(), got.begin(), less),
         std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), want.begin(), less));
    REQUIRE(weft::includes(pol, a.begin(), a.end(), b.begin(), b.end(), less) ==
            std::includes(a.begin(), a.end(), b.begin(), b.end(), less));
    const auto sub_first = a.begin() + static_cast<std::ptrdiff_t>(n1 / 3);
    const auto sub_last = a.begin() + static_cast<std::ptrdiff_t>(2 * n1 / 3);
    REQUIRE(weft::includes(pol, a.begin(), a.end(), sub_first, sub_last, less));
    if constexpr (std::is_same_v<T, int>) {  // the default order (operator<) is key order
      same(weft::set_union(pol, a.begin(), a.end(), b.begin(), b.end(), got.begin()),
           std::set_union(a.begin(), a.end(), b.begin(), b.end(), want.begin()));
      same(weft::set_intersection(pol, a.begin(), a.end(), b.begin(), b.end(), got.begin()),
           std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), want.begin()));
      same(weft::set_difference(pol, a.begin(), a.end(), b.begin(), b.end(), got.begin()),
           std::set_difference(a.begin(), a.end(), b.begin(), b.end(), want.begin()));
      same(weft::set_symmetric_difference(pol, a.begin(), a.end(), b.begin(), b.end(), got.begin()),
           std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), want.begin()));
      REQUIRE(weft::includes(pol, a.begin(), a.end(), sub_first, sub_last));
      REQUIRE(weft::includes(pol, a.begin(), a.end(), b.begin(), b.end()) ==
              std::includes(a.begin(), a.end(), b.begin(), b.end()));
    }
    if (sub_first != sub_last) {
      std::vector<T> extra(sub_first, sub_last);
      extra.back() = make<T>(spread + 5);  // larger than every element of a
      REQUIRE_FALSE(weft::includes(pol, a.begin(), a.end(), extra.begin(), extra.end(), less));
    }
  };
  for_policies<T>(pols);
}

}  // namespace

// Below three threads the set operations run sequentially (two passes would not pay), so the
// parallel path is checked in a pool of four whatever WEFT_NUM_THREADS says.
TEST_CASE("set operations equal std:: on multisets, every length pairing", "[algo]") {
  weft::thread_pool four({.num_threads = 4});
  for (const std::size_t n1 : lengths)
    for (const std::size_t n2 : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, big}) {
      CAPTURE(n1, n2);
      four.install([&] {
        check_sets<int>(n1, n2, 3000, 21);       // repeats: multiset counts matter
        check_sets<int>(n1, n2, 1'000'000, 22);  // mostly distinct
      });
      if (n1 <= 1000 && n2 <= 1000) four.install([&] { check_sets<std::string>(n1, n2, 500, 23); });
    }
  check_sets<int>(big, 1000, 3000, 24);  // on the current pool: sequential at 1 or 2 threads
}

TEST_CASE("set operations: a throwing comparator's exception reaches the caller", "[algo]") {
  auto a = random_input<int>(big, 24, 5000);
  auto b = random_input<int>(big, 25, 5000);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<int> out(a.size() + b.size());
  weft::thread_pool four({.num_threads = 4});
  // A sequential union of two ranges of `big` compares at least `big` times.
  for (const std::size_t at : {std::size_t{0}, big / 2}) {
    std::atomic<std::size_t> calls{0};
    const thrower t{&calls, at};
    REQUIRE_THROWS_AS(four.install([&] { return weft::set_union(weft::par, a.begin(), a.end(), b.begin(), b.end(), out.begin(),
                                      [&](int x, int y) { t.tick(); return x < y; }); }),
                      weft_test::test_error);
  }
  const auto end = weft::set_union(weft::par, a.begin(), a.end(), b.begin(), b.end(), out.begin());
  REQUIRE(std::is_sorted(out.begin(), end));
}
