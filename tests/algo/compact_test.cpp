// SPDX-License-Identifier: MIT
#include <execution>
#include <functional>
#include <list>
#include <numeric>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

template <class T>
bool odd_key(const T& x) {
  return key_of(x) % 2 != 0;
}

template <class T>
T copy_of(const T& x) {
  if constexpr (std::is_copy_constructible_v<T>)
    return x;
  else
    return T(x.value());
}

template <class T>
bool same_vectors(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// The copying algorithms against std:: (copyable element types).
template <class Policy, class T>
void check_copies(const Policy& policy, const std::vector<T>& in) {
  const auto pred = [](const T& x) { return odd_key(x); };
  const auto n = static_cast<std::ptrdiff_t>(in.size());
  std::vector<T> want(in.size()), got(in.size()), want2(in.size()), got2(in.size());

  auto we = std::copy_if(in.begin(), in.end(), want.begin(), pred);
  auto ge = weft::copy_if(policy, in.begin(), in.end(), got.begin(), pred);
  REQUIRE(ge - got.begin() == we - want.begin());
  REQUIRE(got == want);

  we = std::remove_copy_if(in.begin(), in.end(), want.begin(), pred);
  ge = weft::remove_copy_if(policy, in.begin(), in.end(), got.begin(), pred);
  REQUIRE(ge - got.begin() == we - want.begin());
  REQUIRE(got == want);

  if (n > 0) {
    const T value = in[in.size() / 2];
    we = std::remove_copy(in.begin(), in.end(), want.begin(), value);
    ge = weft::remove_copy(policy, in.begin(), in.end(), got.begin(), value);
    REQUIRE(ge - got.begin() == we - want.begin());
    REQUIRE(got == want);
  }

  we = std::unique_copy(in.begin(), in.end(), want.begin());
  ge = weft::unique_copy(policy, in.begin(), in.end(), got.begin());
  REQUIRE(ge - got.begin() == we - want.begin());
  REQUIRE(got == want);
  const auto same_parity = [](const T& a, const T& b) { return odd_key(a) == odd_key(b); };
  we = std::unique_copy(in.begin(), in.end(), want.begin(), same_parity);
  ge = weft::unique_copy(policy, in.begin(), in.end(), got.begin(), same_parity);
  REQUIRE(ge - got.begin() == we - want.begin());
  REQUIRE(got == want);

  const auto wp = std::partition_copy(in.begin(), in.end(), want.begin(), want2.begin(), pred);
  const auto gp = weft::partition_copy(policy, in.begin(), in.end(), got.begin(), got2.begin(), pred);
  REQUIRE(gp.first - got.begin() == wp.first - want.begin());
  REQUIRE(gp.second - got2.begin() == wp.second - want2.begin());
  REQUIRE(got == want);
  REQUIRE(got2 == want2);
}

// The in-place algorithms against std:: (any element type, move-only included). Elements
// past a returned end are unspecified: only the kept prefix is compared.
template <class Policy, class T>
void check_in_place(const Policy& policy, const std::vector<T>& in) {
  const auto pred = [](const T& x) { return odd_key(x); };
  {
    auto want = clone(in), got = clone(in);
    const auto we = std::remove_if(want.begin(), want.end(), pred);
    const auto ge = weft::remove_if(policy, got.begin(), got.end(), pred);
    REQUIRE(ge - got.begin() == we - want.begin());
    REQUIRE(std::equal(got.begin(), ge, want.begin()));
  }
  if (!in.empty()) {
    auto want = clone(in), got = clone(in);
    // A copy: std::remove may read `value` after overwriting it if it is an element.
    const T value = copy_of(in[in.size() / 3]);
    const auto we = std::remove(want.begin(), want.end(), value);
    const auto ge = weft::remove(policy, got.begin(), got.end(), value);
    REQUIRE(ge - got.begin() == we - want.begin());
    REQUIRE(std::equal(got.begin(), ge, want.begin()));
  }
  {
    auto want = clone(in), got = clone(in);
    const auto we = std::unique(want.begin(), want.end());
    const auto ge = weft::unique(policy, got.begin(), got.end());
    REQUIRE(ge - got.begin() == we - want.begin());
    REQUIRE(std::equal(got.begin(), ge, want.begin()));
  }
  {
    auto want = clone(in), got = clone(in);
    const auto we = std::stable_partition(want.begin(), want.end(), pred);
    const auto ge = weft::stable_partition(policy, got.begin(), got.end(), pred);
    REQUIRE(ge - got.begin() == we - want.begin());
    REQUIRE(same_vectors(got, want));
  }
  {
    auto got = clone(in);
    const auto ge = weft::partition(policy, got.begin(), got.end(), pred);
    REQUIRE(std::all_of(got.begin(), ge, pred));
    REQUIRE(std::none_of(ge, got.end(), pred));
    std::vector<int> a, b;
    for (const auto& x : in) a.push_back(key_of(x));
    for (const auto& x : got) b.push_back(key_of(x));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    REQUIRE(a == b);
  }
}

template <class T>
void check_all(std::size_t n, int spread) {
  const auto in = random_input<T>(n, 11, spread);
  if constexpr (std::is_copy_constructible_v<T>)
    for_policies<T>([&](auto pol) { check_copies(pol, in); });
  for_policies<T>([&](auto pol) { check_in_place(pol, in); });
}

}  // namespace

TEST_CASE("compaction matches std:: on int, every algorithm and policy", "[algo][compact]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    check_all<int>(n, 1'000'000);
    check_all<int>(n, 3);  // long runs of equal elements for unique
  }
}

TEST_CASE("compaction matches std:: on std::string and move-only elements", "[algo][compact]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    check_all<std::string>(n, 4);
    check_all<move_only>(n, 5);
  }
}

TEST_CASE("compaction over weaker iterators runs sequentially", "[algo][compact]") {
  std::list<int> l{1, 2, 3, 4, 5};
  std::vector<int> out(5);
  const auto end = weft::copy_if(weft::par, l.begin(), l.end(), out.begin(),
                                 [](int x) { return x % 2 == 1; });
  REQUIRE(std::vector<int>(out.begin(), end) == std::vector<int>{1, 3, 5});
  const auto l_end = weft::remove(weft::par, l.begin(), l.end(), 3);
  REQUIRE(std::distance(l.begin(), l_end) == 4);
}

TEST_CASE("compaction: an exception from pred reaches the caller, in-place ranges stay intact",
          "[algo][compact]") {
  const auto in = random_input<std::string>(big, 12);
  std::vector<std::string> out(in.size()), out2(in.size());
  // Every position must be reachable at one thread, where pred runs once per element (and
  // unique's comparison once per adjacent pair).
  for (const std::size_t at : {std::size_t{0}, std::size_t{777}, in.size() * 3 / 5,
                               in.size() - 2}) {
    CAPTURE(at);
    std::atomic<std::size_t> calls{0};
    const thrower t{&calls, at};
    const auto pred = [&](const std::string& s) {
      t.tick();
      return odd_key(s);
    };
    REQUIRE_THROWS_AS(weft::copy_if(weft::par, in.begin(), in.end(), out.begin(), pred),
                      weft_test::test_error);
    calls = 0;
    REQUIRE_THROWS_AS(
        weft::partition_copy(weft::par, in.begin(), in.end(), out.begin(), out2.begin(), pred),
        weft_test::test_error);
    calls = 0;
    auto v = in;
    REQUIRE_THROWS_AS(weft::remove_if(weft::par, v.begin(), v.end(), pred), weft_test::test_error);
    REQUIRE(v == in);
    calls = 0;
    REQUIRE_THROWS_AS(weft::stable_partition(weft::par, v.begin(), v.end(), pred),
                      weft_test::test_error);
    REQUIRE(v == in);
    calls = 0;
    REQUIRE_THROWS_AS(weft::unique(weft::par, v.begin(), v.end(),
                                   [&](const std::string& a, const std::string& b) {
                                     t.tick();
                                     return a == b;
                                   }),
                      weft_test::test_error);
    REQUIRE(v == in);
  }
  std::vector<std::string> want(in.size());
  const auto we = std::copy_if(in.begin(), in.end(), want.begin(), odd_key<std::string>);
  const auto ge = weft::copy_if(weft::par, in.begin(), in.end(), out.begin(), odd_key<std::string>);
  REQUIRE(ge - out.begin() == we - want.begin());
  REQUIRE(out == want);
}

TEST_CASE("adjacent_difference matches std::", "[algo][compact]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    const auto in = random_input<int>(n, 13);
    std::vector<int> want(n), got(n);
    std::adjacent_difference(in.begin(), in.end(), want.begin());
    REQUIRE(weft::adjacent_difference(weft::par, in.begin(), in.end(), got.begin()) == got.end());
    REQUIRE(got == want);
    const auto sin = random_input<std::string>(n, 14);
    std::vector<std::string> swant(n), sgot(n);
    const auto cat = [](const std::string& a, const std::string& b) { return b + a; };
    std::adjacent_difference(sin.begin(), sin.end(), swant.begin(), cat);
    weft::adjacent_difference(std::execution::par, sin.begin(), sin.end(), sgot.begin(), cat);
    REQUIRE(sgot == swant);
  }
}

// The trivially copyable path stores elements that are not kept too (each overwritten by the
// next kept one): an output sized exactly to the kept count catches a store past the end
// (under AddressSanitizer) and a misplaced one (by the comparison).
TEST_CASE("copy_if stores nothing past its output, whatever the pattern", "[algo][compact]") {
  const std::size_t n = big;
  std::vector<long long> in(n);
  std::iota(in.begin(), in.end(), 0LL);
  const std::pair<const char*, bool (*)(long long)> patterns[] = {
      {"none", [](long long) { return false; }},
      {"all", [](long long) { return true; }},
      {"first", [](long long x) { return x == 0; }},
      {"last", [](long long x) { return x == 100002; }},
      {"runs", [](long long x) { return x / 5000 % 2 == 1; }},
      {"sparse", [](long long x) { return x % 9973 == 17; }},
  };
  for (const auto& [name, pred] : patterns) {
    CAPTURE(name);
    const auto kept = static_cast<std::size_t>(std::count_if(in.begin(), in.end(), pred));
    std::vector<long long> want(kept), got(kept);
    std::copy_if(in.begin(), in.end(), want.begin(), pred);
    REQUIRE(weft::copy_if(weft::par, in.begin(), in.end(), got.begin(), pred) == got.end());
    REQUIRE(got == want);
    std::vector<long long> got2(n - kept);
    REQUIRE(weft::remove_copy_if(weft::par, in.begin(), in.end(), got2.begin(), pred) ==
            got2.end());
  }
}
