// SPDX-License-Identifier: MIT
// A comparator that throws at the k-th call: the exception reaches the caller, the range
// still holds every element exactly once (ASan checks the move-only type for leaks and
// double frees), and the pool stays usable.
#include <functional>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

template <class T>
auto sorted_values(const std::vector<T>& v) {
  std::vector<int> out;
  for (const auto& x : v) out.push_back(key_of(x));
  std::sort(out.begin(), out.end());
  return out;
}

// Sorts a copy of `input` with a comparator that throws at its `at`-th call; returns whether
// it threw. One comparator type per element type: each sort is compiled once.
template <class T, class Sort>
bool sort_throwing_at(Sort sort, std::vector<T>& v, std::size_t at) {
  std::atomic<std::size_t> calls{0};
  const thrower t{&calls, at};
  try {
    sort(v, [&](const T& a, const T& b) {
      t.tick();
      return a < b;
    });
  } catch (const weft_test::test_error&) {
    return true;
  }
  return false;
}

template <class T, class Sort>
void throw_at_several_points(Sort sort) {
  for (const std::size_t n : {std::size_t{1000}, big}) {
    const auto input = random_input<T>(n, 21);
    const auto want = sorted_values(input);
    // The first call, one inside the tile sorts, calls late enough to land in merges, and
    // four random calls (seeded: a failure names its `at` and reproduces).
    auto rng = weft_test::seeded_rng(n + sizeof(T));
    std::vector<std::size_t> points{0, 500, n * 3, n * 9, n * 14};
    for (int i = 0; i < 4; ++i) points.push_back(rng() % (n * 16));
    for (const std::size_t at : points) {
      CAPTURE(n, at);
      auto v = clone(input);
      const bool threw = sort_throwing_at(sort, v, at);
      REQUIRE(sorted_values(v) == want);
      if (!threw) REQUIRE(std::is_sorted(v.begin(), v.end()));
    }
  }
  // The pool is still usable: a sort that does not throw completes.
  auto v = random_input<T>(big, 4);
  REQUIRE_FALSE(sort_throwing_at(sort, v, std::size_t(-1)));
  REQUIRE(std::is_sorted(v.begin(), v.end()));
}

}  // namespace

TEST_CASE("sort: a throwing comparator leaves a permutation", "[algo][sort][exceptions]") {
  const auto s = [](auto& v, auto comp) { weft::sort(weft::par, v.begin(), v.end(), comp); };
  throw_at_several_points<std::string>(s);
  throw_at_several_points<move_only>(s);
  throw_at_several_points<int>(s);
}

TEST_CASE("stable_sort: a throwing comparator leaves a permutation", "[algo][sort][exceptions]") {
  const auto s = [](auto& v, auto comp) { weft::stable_sort(weft::par, v.begin(), v.end(), comp); };
  throw_at_several_points<std::string>(s);
  throw_at_several_points<move_only>(s);
}

TEST_CASE("inplace_merge: a throwing comparator leaves a permutation", "[algo][sort][exceptions]") {
  const auto s = [](auto& v, auto comp) {
    using T = typename std::remove_reference_t<decltype(v)>::value_type;
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 3);
    std::sort(v.begin(), mid);
    std::sort(mid, v.end());
    weft::inplace_merge(weft::par, v.begin(), mid, v.end(), [&](const T& a, const T& b) { return comp(a, b); });
  };
  throw_at_several_points<move_only>(s);
  throw_at_several_points<std::string>(s);
}

// A projection that may throw (not noexcept) still takes the radix path, through keys
// extracted before any element moves: a throw leaves the input as it was.
TEST_CASE("sort and stable_sort: a throwing projection leaves the input untouched", "[algo][sort][exceptions]") {
  using pair_t = std::pair<std::uint32_t, std::uint32_t>;
  std::vector<pair_t> input(big);
  auto rng = weft_test::seeded_rng(big);
  for (std::size_t i = 0; i < big; ++i) input[i] = {static_cast<std::uint32_t>(rng() % 5000), static_cast<std::uint32_t>(i)};
  for (const bool stable : {false, true})
    for (const std::size_t at : {std::size_t{0}, std::size_t{1}, big / 2, big - 1}) {
      CAPTURE(stable, at);
      auto v = input;
      std::atomic<std::size_t> calls{0};
      const auto proj = [&](const pair_t& p) {
        if (calls.fetch_add(1) == at) throw weft_test::test_error{};
        return p.first;
      };
      if (stable)
        REQUIRE_THROWS_AS(weft::stable_sort(v, std::ranges::greater{}, proj), weft_test::test_error);
      else
        REQUIRE_THROWS_AS(weft::sort(v, std::ranges::less{}, proj), weft_test::test_error);
      REQUIRE(v == input);
    }
  // Without a throw: the order of the data member projection.
  auto v = input, want = input;
  weft::stable_sort(v, std::ranges::greater{}, [](const pair_t& p) { return p.first; });
  weft::stable_sort(want, std::ranges::greater{}, &pair_t::first);
  REQUIRE(v == want);
}
