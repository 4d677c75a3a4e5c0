// SPDX-License-Identifier: MIT
// The radix path's own cases: lengths on each side of its thresholds, keys whose differing
// bits sit in awkward places (only low bits, only high bits, a gap between, one bit the
// sampling misses), tie runs long enough to need the bounded fix-up, and the cached scratch
// buffer under back-to-back and concurrent sorts.
#include <cmath>
#include <functional>
#include <limits>
#include <thread>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

using pair_t = std::pair<std::uint32_t, std::uint32_t>;

// Sorts u64 keys with weft::sort and weft::stable_sort, ascending and descending, against
// std::sort.
void check_u64(std::vector<std::uint64_t> v) {
  auto want = v;
  std::sort(want.begin(), want.end());
  auto a = v;
  weft::sort(weft::par, a.begin(), a.end());
  REQUIRE(a == want);
  auto b = v;
  weft::stable_sort(weft::par, b.begin(), b.end());
  REQUIRE(b == want);
  std::reverse(want.begin(), want.end());
  weft::sort(weft::par, v.begin(), v.end(), std::greater<>{});
  REQUIRE(v == want);
}

// Stable sort of (key, position) pairs by key against std::stable_sort: any stability error
// changes the value order.
void check_pairs(std::vector<pair_t> v) {
  auto want = v;
  std::stable_sort(want.begin(), want.end(),
                   [](const pair_t& x, const pair_t& y) { return x.first < y.first; });
  weft::stable_sort(v, {}, &pair_t::first);
  REQUIRE(v == want);
}

std::vector<pair_t> pairs_of(std::size_t n, std::uint32_t key_mask, std::uint64_t salt) {
  auto rng = weft_test::seeded_rng(salt + n);
  std::vector<pair_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = {static_cast<std::uint32_t>(rng()) & key_mask, static_cast<std::uint32_t>(i)};
  return v;
}

// Lengths just below and above each threshold of the radix path: the insertion cutoff (32),
// the sequential/parallel split (2 tiles of 2^14), the LSD bucket limit (2^16).
const std::size_t edge_lengths[] = {0,     1,     2,     3,     31,    32,   33,
                                    32767, 32768, 32769, 65535, 65536, 65537};

}  // namespace

TEST_CASE("radix sort: lengths around every threshold", "[algo][sort][radix]") {
  for (const std::size_t n : edge_lengths) {
    auto rng = weft_test::seeded_rng(n);
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = rng();
    check_u64(v);
    check_pairs(pairs_of(n, 0xFFFFF, 1));
    check_pairs(pairs_of(n, 0x3, 2));
  }
}

TEST_CASE("radix sort: all-equal keys, and keys differing in few or far-apart bits",
          "[algo][sort][radix]") {
  const std::size_t n = big * 3;
  auto rng = weft_test::seeded_rng(3);
  std::vector<std::uint64_t> v(n, 0xDEADBEEFull);
  check_u64(v);
  for (auto& x : v) x = rng() & 0x7;  // only the low bits
  check_u64(v);
  for (auto& x : v) x = (rng() & 0x7) << 61;  // only the top bits
  check_u64(v);
  for (auto& x : v) x = ((rng() & 0xF) << 60) | (rng() & 0xFFFF);  // a 44-bit gap
  check_u64(v);
  for (auto& x : v) x = (rng() >> 20) << 20;  // low 20 bits always zero
  check_u64(v);
  // Keys that agree on every bit of each LSD window but differ far below it: the tie runs are
  // thousands long (a plain insertion sort would be quadratic).
  for (auto& x : v) x = ((rng() & 0x3FF) << 54) | (rng() & 0xFF);
  check_u64(v);
  for (auto& x : v) x = ((rng() & 0x3) << 62) | ((rng() & 0x1) << 30) | (rng() & 0xFFFFF);
  check_u64(v);
}

TEST_CASE("radix sort: a high bit the sample does not see", "[algo][sort][radix]") {
  // The first digit is chosen from a sample of the keys (the first 1024 and 1024 strided
  // ones); one key with a higher bit, off the sample, moves it and forces a recount.
  for (const std::size_t n : {std::size_t(40000), big, 3 * big}) {
    auto rng = weft_test::seeded_rng(n);
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = rng() & 0xFFFFF;
    v[n - 3] = std::uint64_t(1) << 50;
    check_u64(v);
    auto p = pairs_of(n, 0xFFFF, 5);
    p[n - 2].first = 0x80000000u;
    check_pairs(p);
  }
}

TEST_CASE("radix sort: inputs in order tile by tile but not as a whole", "[algo][sort][radix]") {
  // The first pass leaves tiles found in order uncounted, and counts them only once the
  // whole input turns out to be unordered: sorted but for its last element, a sawtooth of
  // sorted runs, ascending then descending halves.
  const std::size_t n = 3 * big;
  auto rng = weft_test::seeded_rng(17);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = rng();
  std::sort(v.begin(), v.end());
  std::swap(v[n - 1], v[n / 3]);
  check_u64(v);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = (i % 20000) * 0x9E3779B97F4A7C15ull % (std::uint64_t(1) << 40) + (i % 20000);
  for (std::size_t i = 0; i < n; i += 20000)
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(i),
              v.begin() + static_cast<std::ptrdiff_t>(std::min(n, i + 20000)));
  check_u64(v);
  for (std::size_t i = 0; i < n; ++i) v[i] = i < n / 2 ? i : n - i;
  check_u64(v);
  auto p = pairs_of(n, 0xFFFFF, 11);
  std::stable_sort(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(n / 2),
                   [](const pair_t& x, const pair_t& y) { return x.first < y.first; });
  check_pairs(p);
  // Equal keys first (every order still open), then descending with ties, then one rise in
  // the middle of a tile: the descending survey loop leaves at the rise.
  for (std::size_t i = 0; i < n; ++i) v[i] = i < 1000 ? n : (n - i) / 2;
  v[n / 3 + 5] = n + 7;
  check_u64(v);
  // Descending with one tie deep inside a tile and no rise: a stable sort may not reverse it
  // as a whole (the tied pair would swap), an unstable one may; and descending in pairs of
  // ties from the first keys on, and strictly descending, which both sorts reverse.
  std::vector<pair_t> q(n);
  for (std::size_t i = 0; i < n; ++i)
    q[i] = {static_cast<std::uint32_t>(n - i), static_cast<std::uint32_t>(i)};
  q[n / 3 + 7].first = q[n / 3 + 6].first;
  check_pairs(q);
  for (std::size_t i = 0; i < n; ++i) v[i] = (n - i) / 2;
  check_u64(v);
  for (std::size_t i = 0; i < n; ++i) v[i] = n - i;
  check_u64(v);
  // Equal keys, then ascending: the ascending loop runs to the end.
  for (std::size_t i = 0; i < n; ++i) v[i] = i < 1000 ? 0 : i;
  check_u64(v);
  // The ascending order check goes 8 keys at a time, a group with a misfit left to an exact
  // loop: one misfit at each place of a group (17 offsets), in an ascending input (an adjacent
  // swap), and in a strictly descending one (a rise; a tie, which a stable sort may not
  // reverse).
  for (std::size_t off = 0; off < 17; ++off) {
    CAPTURE(off);
    const std::size_t at = n / 3 + off;
    for (std::size_t i = 0; i < n; ++i) v[i] = 2 * i;
    std::swap(v[at], v[at + 1]);
    check_u64(v);
    for (std::size_t i = 0; i < n; ++i) v[i] = 2 * (n - i);
    v[at + 1] = v[at] + 1;
    check_u64(v);
    for (std::size_t i = 0; i < n; ++i)
      q[i] = {static_cast<std::uint32_t>(n - i), static_cast<std::uint32_t>(i)};
    q[at + 1].first = q[at].first;
    check_pairs(q);
  }
}

TEST_CASE("radix stable_sort: 20-bit keys at a parallel size keep input order",
          "[algo][sort][radix]") {
  const std::size_t n = sanitized ? 70001 : 1'500'007;
  check_pairs(pairs_of(n, 0xFFFFF, 7));
  check_pairs(pairs_of(n, 0xFF, 8));
  check_pairs(pairs_of(n, 0xFFFFF000u, 9));
}

TEST_CASE("radix sort: signed and floating-point keys at a parallel size", "[algo][sort][radix]") {
  const std::size_t n = sanitized ? 70001 : 600'001;
  auto rng = weft_test::seeded_rng(13);
  std::vector<std::int64_t> s(n);
  for (auto& x : s) x = static_cast<std::int64_t>(rng()) >> static_cast<int>(rng() % 63);
  auto sw = s;
  std::sort(sw.begin(), sw.end());
  weft::sort(weft::par, s.begin(), s.end());
  REQUIRE(s == sw);

  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i)
    d[i] = i % 5 == 0 ? (i % 2 ? -0.0 : 0.0)
                      : static_cast<double>(static_cast<std::int64_t>(rng() % 20001) - 10000) *
                            std::ldexp(1.0, static_cast<int>(rng() % 40) - 20);
  d[n / 2] = std::numeric_limits<double>::infinity();
  d[n / 3] = -std::numeric_limits<double>::infinity();
  auto dw = d;
  std::stable_sort(dw.begin(), dw.end());
  weft::stable_sort(weft::par, d.begin(), d.end());
  REQUIRE(d == dw);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(std::signbit(d[i]) == std::signbit(dw[i]));

  std::vector<float> f(n);
  for (auto& x : f) x = static_cast<float>(static_cast<std::int64_t>(rng() % 4001) - 2000) / 7.0f;
  auto fw = f;
  std::sort(fw.begin(), fw.end(), std::greater<>{});
  weft::sort(f, std::ranges::greater{});
  REQUIRE(f == fw);
}

TEST_CASE("radix sort: the cached scratch buffer, back to back and from two threads",
          "[algo][sort][radix]") {
  // 2^20 8-byte keys: 8 MiB, the smallest buffer the cache keeps. Growing, shrinking and
  // growing again takes, replaces and reuses the cached block.
  const std::size_t m = std::size_t(1) << 20;
  for (const std::size_t n : {m, m + m / 2, m, 2 * m}) {
    auto rng = weft_test::seeded_rng(n);
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = rng();
    auto want = v;
    std::sort(want.begin(), want.end());
    weft::sort(weft::par, v.begin(), v.end());
    REQUIRE(v == want);
  }
  // Two threads, each sorting in its own pool: at most one of them holds the cached block at
  // a time; a mix-up would show as a wrong result.
  const int rounds = sanitized ? 2 : 6;
  std::vector<std::vector<std::uint64_t>> got(2), want(2);
  std::vector<bool> ok(2, true);
  std::vector<std::thread> ts;
  for (int t = 0; t < 2; ++t) {
    ts.emplace_back([&, t] {
      weft::thread_pool pool({.num_threads = 2});
      pool.install([&] {
        for (int r = 0; r < rounds; ++r) {
          auto rng = weft_test::seeded_rng(static_cast<std::uint64_t>(100 * t + r));
          std::vector<std::uint64_t> v(m + static_cast<std::size_t>(t) * 4099);
          for (auto& x : v) x = rng();
          auto w = v;
          std::sort(w.begin(), w.end());
          weft::sort(weft::par, v.begin(), v.end());
          if (v != w) ok[static_cast<std::size_t>(t)] = false;
        }
      });
    });
  }
  for (auto& t : ts) t.join();
  REQUIRE(ok[0]);
  REQUIRE(ok[1]);
}

TEST_CASE("radix sort: the streamed scatter and bucket copies", "[algo][sort][radix]") {
  // Inputs from 16 MiB up are written with streaming stores when their parallel digit has at
  // least 32 values (300,000 keys: 32 digits, and 64 when the parallel digit has more bits): the scatter through a
  // line buffer per digit, the sorted buckets copied out of a warm buffer. Lowering the byte
  // threshold to 0 takes that path at smaller sizes; the destinations start at several
  // offsets within a cache line (the partial lines at the ends of each digit's part of each
  // block are written with plain stores).
  using weft::detail::algo::radix_key_fn;
  using weft::detail::algo::radix_sort;
  const radix_key_fn<std::identity, std::uint64_t, false> up64{};
  const radix_key_fn<std::identity, std::uint64_t, true> down64{};
  const radix_key_fn<std::identity, std::uint32_t, false> up32{};
  const radix_key_fn<decltype(&pair_t::first), std::uint32_t, false> by_first{&pair_t::first};
  for (const std::size_t n : {std::size_t(300000), std::size_t(sanitized ? 0 : 1'100'003)}) {
    for (std::size_t offset = 0; offset < 8 && n != 0; offset += 3) {
      auto rng = weft_test::seeded_rng(n + offset);
      std::vector<std::uint64_t> v(n + offset);
      for (auto& x : v) x = rng();
      // One digit holds most keys: that bucket is scattered again, into the caller's array
      // (at an offset from its lines that depends on where the bucket starts).
      std::vector<std::uint64_t> skew(v);
      for (std::size_t i = 0; i < skew.size(); ++i)
        if (i % 10 != 0) skew[i] >>= 8;
      for (auto* in : {&v, &skew}) {
        auto want = *in;
        std::sort(want.begin() + static_cast<std::ptrdiff_t>(offset), want.end());
        auto got = *in;
        radix_sort(got.data() + offset, n, up64, false, 0);
        REQUIRE(got == want);
        std::sort(want.begin() + static_cast<std::ptrdiff_t>(offset), want.end(),
                  std::greater<>{});
        got = *in;
        radix_sort(got.data() + offset, n, down64, false, 0);
        REQUIRE(got == want);
      }
      std::vector<std::uint32_t> w(n + offset);
      for (auto& x : w) x = static_cast<std::uint32_t>(rng());
      auto want32 = w;
      std::sort(want32.begin() + static_cast<std::ptrdiff_t>(offset), want32.end());
      radix_sort(w.data() + offset, n, up32, false, 0);
      REQUIRE(w == want32);
      auto p = pairs_of(n + offset, 0xFFFFF, offset);
      auto want_p = p;
      std::stable_sort(want_p.begin() + static_cast<std::ptrdiff_t>(offset), want_p.end(),
                       [](const pair_t& x, const pair_t& y) { return x.first < y.first; });
      radix_sort(p.data() + offset, n, by_first, true, 0);
      REQUIRE(p == want_p);
      // 16-bit keys: the buckets' bits below the parallel digit take one pass, which writes
      // the warm buffer that is streamed out, with no copy between.
      auto q = pairs_of(n + offset, 0xFFFF, offset + 1);
      auto want_q = q;
      std::stable_sort(want_q.begin() + static_cast<std::ptrdiff_t>(offset), want_q.end(),
                       [](const pair_t& x, const pair_t& y) { return x.first < y.first; });
      radix_sort(q.data() + offset, n, by_first, true, 0);
      REQUIRE(q == want_q);
    }
  }
  // And through the public overloads at a size that streams by default (16 MiB of keys).
  if constexpr (!sanitized) {
    const std::size_t n = (std::size_t(16) << 20) / sizeof(std::uint64_t) + 4099;
    auto rng = weft_test::seeded_rng(n);
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = rng();
    check_u64(v);
    check_pairs(pairs_of(n, 0xFFFFF, 21));
  }
}
