// SPDX-License-Identifier: MIT
// The radix path for a projection that may throw (keyed_radix_sort.hpp): it sorts as the
// noexcept projection does on every kind of key set, on both of its paths (records for short
// inputs, checked for long ones, streamed or not); and a projection that throws, or answers
// differently, at any later call leaves a permutation, never a crash or a lost element, in
// pools of 1, 2 and 7 threads.
#include <functional>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

using pair_t = std::pair<std::uint32_t, std::uint32_t>;
using weft::detail::algo::keyed_radix_sort;
using weft::detail::algo::radix_key_fn;

// Long enough for the checked path (more than two tiles of 16 Ki), also under the sanitizers.
constexpr std::size_t n_checked = 100003;

// (key, position) pairs; the key's shape by `kind`.
enum class keys { random20, random32, skewed, few, sorted, reversed, equal };

std::vector<pair_t> pairs(std::size_t n, keys kind, std::uint64_t salt) {
  auto rng = weft_test::seeded_rng(salt + n);
  std::vector<pair_t> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = static_cast<std::uint32_t>(rng());
    std::uint32_t k = 0;
    switch (kind) {
      case keys::random20: k = r & 0xFFFFF; break;
      case keys::random32: k = r; break;
      // Nine keys in ten share their top digit: that bucket is longer than the cache path
      // takes, and is sorted by the checked path again.
      case keys::skewed: k = i % 10 == 0 ? r : (r & 0xFFFF); break;
      case keys::few: k = (r & 15) << 20; break;
      case keys::sorted: k = static_cast<std::uint32_t>(i / 3); break;
      case keys::reversed: k = static_cast<std::uint32_t>((n - i) / 3); break;
      case keys::equal: k = 7; break;
    }
    v[i] = {k, static_cast<std::uint32_t>(i)};
  }
  return v;
}

// The input sorted by `key(p)` under `less`, stably.
template <class Key, class Less>
std::vector<pair_t> stably_sorted(std::vector<pair_t> v, Key key, Less less) {
  std::stable_sort(v.begin(), v.end(),
                   [&](const pair_t& x, const pair_t& y) { return less(key(x), key(y)); });
  return v;
}

// Every element exactly once: the pairs' positions are distinct, so sorting by position
// must give back the input.
void require_permutation(std::vector<pair_t> got, const std::vector<pair_t>& input) {
  std::sort(got.begin(), got.end(),
            [](const pair_t& x, const pair_t& y) { return x.second < y.second; });
  REQUIRE(got == input);
}

}  // namespace

TEST_CASE("keyed radix sort: a projection that may throw sorts as a noexcept one", "[algo][sort][radix]") {
  const auto key = [](const pair_t& p) { return p.first; };  // not noexcept
  for (const std::size_t n : {std::size_t{1000}, n_checked}) {
    for (const keys kind : {keys::random20, keys::random32, keys::skewed, keys::few, keys::sorted,
                            keys::reversed, keys::equal}) {
      CAPTURE(n, static_cast<int>(kind));
      const auto input = pairs(n, kind, 1);
      // The public overloads: stable_sort exactly; sort (unstable) by its keys.
      auto v = input;
      weft::stable_sort(v, {}, key);
      REQUIRE(v == stably_sorted(input, key, std::less<>{}));
      v = input;
      weft::stable_sort(v, std::ranges::greater{}, key);
      REQUIRE(v == stably_sorted(input, key, std::greater<>{}));
      v = input;
      weft::sort(weft::par, v.begin(), v.end(),
                 [](const pair_t& x, const pair_t& y) { return x.first < y.first; });
      auto w = input;
      weft::sort(w, {}, key);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(w[i].first == v[i].first);
      require_permutation(w, input);
      // The kernel with streaming stores from any size up.
      const radix_key_fn<decltype(key), std::uint32_t, false> up{key};
      v = input;
      keyed_radix_sort(v.data(), n, up, true, 0, 0);
      REQUIRE(v == stably_sorted(input, key, std::less<>{}));
    }
  }
  // A floating-point key, descending: -0.0 and +0.0 are equal keys and keep their order.
  struct rec {
    double d;
    std::uint32_t pos;
  };
  std::vector<rec> r(n_checked);
  auto rng = weft_test::seeded_rng(3);
  for (std::size_t i = 0; i < r.size(); ++i)
    r[i] = {i % 7 == 0 ? (i % 2 ? 0.0 : -0.0) : static_cast<double>(rng() % 2001) - 1000.5,
            static_cast<std::uint32_t>(i)};
  auto want = r;
  std::stable_sort(want.begin(), want.end(), [](const rec& x, const rec& y) { return x.d > y.d; });
  weft::stable_sort(r, std::ranges::greater{}, [](const rec& x) { return x.d; });
  for (std::size_t i = 0; i < r.size(); ++i) REQUIRE(r[i].pos == want[i].pos);
}

// The checked path calls the projection again after its first pass (the top digit's
// scatter, then each bucket). A throw there reaches the caller with every element still
// present; the pool stays usable.
TEST_CASE("keyed radix sort: a projection that throws after its first call on every element", "[algo][sort][radix][exceptions]") {
  // 20-bit keys: the buckets sort keys and elements side by side; 32-bit keys: as records.
  for (const keys kind : {keys::random20, keys::random32}) {
    const auto input = pairs(n_checked, kind, 2);
    const auto want = stably_sorted(input, [](const pair_t& p) { return p.first; }, std::less<>{});
    // How many calls an undisturbed sort makes (about 3 n: the first pass, the scatter, the
    // buckets; the same at any thread count).
    std::atomic<std::size_t> calls{0};
    const auto counted = [&](const pair_t& p) {
      calls.fetch_add(1, std::memory_order_relaxed);
      return p.first;
    };
    {
      auto v = input;
      weft::stable_sort(v, {}, counted);
      REQUIRE(v == want);
    }
    const std::size_t total = calls.load();
    REQUIRE(total > 2 * n_checked);
    for (const std::size_t threads : {1, 2, 7}) {
      weft::thread_pool pool({.num_threads = threads});
      for (const double at : {0.45, 0.6, 0.7, 0.85, 0.999}) {
        const auto when = static_cast<std::size_t>(at * static_cast<double>(total));
        CAPTURE(static_cast<int>(kind), threads, at, when);
        for (const std::size_t stream_min : {std::size_t{0}, weft::detail::algo::stream_min_bytes}) {
          std::atomic<std::size_t> k{0};
          const auto throwing = [&](const pair_t& p) {
            if (k.fetch_add(1, std::memory_order_relaxed) == when) throw weft_test::test_error{};
            return p.first;
          };
          const radix_key_fn<decltype(throwing), std::uint32_t, false> key{throwing};
          auto v = input;
          pool.install([&] {
            REQUIRE_THROWS_AS(keyed_radix_sort(v.data(), v.size(), key, true, 0, stream_min),
                              weft_test::test_error);
          });
          require_permutation(v, input);
        }
        auto v = input;
        pool.install([&] { weft::stable_sort(v, {}, [](const pair_t& p) { return p.first; }); });
        REQUIRE(v == want);
      }
    }
  }
}

// A projection that is no function of its argument. From a call in the first pass on, it
// answers key ^ flip: the scatter finds keys outside the places the count gave them, and the
// records path sorts again by the keys it extracts once (all of them flipped). Later, in the
// buckets, the elements only have to stay a permutation.
TEST_CASE("keyed radix sort: a projection that answers differently on a later call", "[algo][sort][radix]") {
  const auto input = pairs(n_checked, keys::random20, 4);
  constexpr std::uint32_t flip = 0xA5A5A;
  for (const std::size_t threads : {1, 2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    for (const std::size_t from : {n_checked / 2, 2 * n_checked + n_checked / 2}) {
      CAPTURE(threads, from);
      std::atomic<std::size_t> k{0};
      const auto changing = [&](const pair_t& p) {
        return k.fetch_add(1, std::memory_order_relaxed) < from ? p.first : p.first ^ flip;
      };
      auto v = input;
      pool.install([&] { weft::stable_sort(v, {}, changing); });
      require_permutation(v, input);
      if (from < n_checked)
        REQUIRE(v == stably_sorted(input, [&](const pair_t& p) { return p.first ^ flip; },
                                   std::less<>{}));
    }
  }
}
