// SPDX-License-Identifier: MIT
// The sequential stable sort (kernels/run_merge_sort.hpp) on inputs made of runs: every
// length up to past two minimum runs, run shapes that reach each merge direction and the
// stack's rules, stability against std::stable_sort, and a throwing comparator on the
// calling thread (weft::seq), where no parallel merge level takes over; and the merge in
// parts (kernels/merge_path.hpp) that both the tile sort and the merge levels use.
#include <weft/kernels/merge_path.hpp>
#include <weft/kernels/run_merge_sort.hpp>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

using pair_t = std::pair<std::uint32_t, std::uint32_t>;  // (key, input position)

constexpr auto by_key = [](const pair_t& a, const pair_t& b) { return a.first < b.first; };

enum class shape { random, few_keys, ascending, descending, descending_ties, sawtooth, runs_of_random_length };

std::vector<pair_t> shaped(std::size_t n, shape s, std::uint64_t salt) {
  auto rng = weft_test::seeded_rng(salt * 31 + n);
  std::vector<pair_t> v(n);
  std::size_t run_left = 0;
  std::uint32_t base = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t k = 0;
    switch (s) {
      case shape::random: k = static_cast<std::uint32_t>(rng() % 1'000'000); break;
      case shape::few_keys: k = static_cast<std::uint32_t>(rng() % 4); break;
      case shape::ascending: k = static_cast<std::uint32_t>(i); break;
      case shape::descending: k = static_cast<std::uint32_t>(n - i); break;
      case shape::descending_ties: k = static_cast<std::uint32_t>((n - i) / 3); break;
      case shape::sawtooth: k = static_cast<std::uint32_t>(i % 97); break;
      case shape::runs_of_random_length:
        if (run_left == 0) {
          run_left = 1 + rng() % 300;
          base = static_cast<std::uint32_t>(rng() % 1000);
        }
        --run_left;
        k = base++;
        break;
    }
    v[i] = {k, static_cast<std::uint32_t>(i)};
  }
  return v;
}

constexpr shape shapes[] = {shape::random,          shape::few_keys, shape::ascending,
                            shape::descending,      shape::descending_ties,
                            shape::sawtooth,        shape::runs_of_random_length};

}  // namespace

TEST_CASE("run merge sort equals std::stable_sort on every shape", "[algo][sort]") {
  std::vector<std::size_t> ns;
  for (std::size_t n = 0; n <= 70; ++n) ns.push_back(n);
  for (const std::size_t n : {std::size_t{255}, std::size_t{1000}, std::size_t{4097}, big}) ns.push_back(n);
  for (const std::size_t n : ns)
    for (const shape s : shapes) {
      CAPTURE(n, static_cast<int>(s));
      auto v = shaped(n, s, 5);
      auto want = v;
      std::stable_sort(want.begin(), want.end(), by_key);
      auto seq = v;
      weft::stable_sort(weft::seq, seq.begin(), seq.end(), by_key);
      REQUIRE(seq == want);
      // The kernel with a bare scratch of exactly n / 2 (ASan sees any access past it).
      auto kernel = v;
      const auto buf = std::make_unique<pair_t[]>(n / 2 + (n == 0));
      auto comp = by_key;
      weft::detail::algo::run_merge_sort(kernel.begin(), n, buf.get(), comp);
      REQUIRE(kernel == want);
      // With a whole buffer of exactly n: the merges in parts (merge_move_parts).
      auto whole = v;
      const auto whole_buf = std::make_unique<pair_t[]>(n + (n == 0));
      weft::detail::algo::run_merge_sort(whole.begin(), n, whole_buf.get(), comp, true);
      REQUIRE(whole == want);
    }
}

// merge_move_parts: a merge of two runs of keys with ties (the second member is the input
// position, so stability shows), for lengths that leave parts empty, equal and lopsided.
TEST_CASE("merge in parts equals std::merge and keeps ties in order", "[algo][sort]") {
  auto rng = weft_test::seeded_rng(41);
  const std::size_t lengths[] = {0, 1, 3, 31, 64, 100, 1000, 4099};
  for (const std::size_t n1 : lengths)
    for (const std::size_t n2 : lengths)
      for (const std::uint32_t keys : {3u, 1'000'000u}) {
        CAPTURE(n1, n2, keys);
        std::vector<pair_t> in(n1 + n2);
        for (std::size_t i = 0; i < in.size(); ++i)
          in[i] = {static_cast<std::uint32_t>(rng() % keys), static_cast<std::uint32_t>(i)};
        std::stable_sort(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n1), by_key);
        std::stable_sort(in.begin() + static_cast<std::ptrdiff_t>(n1), in.end(), by_key);
        std::vector<pair_t> want(in.size()), got(in.size());
        std::merge(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n1),
                   in.begin() + static_cast<std::ptrdiff_t>(n1), in.end(), want.begin(), by_key);
        auto comp = by_key;
        pair_t* const a = in.data();
        weft::detail::algo::merge_move_parts(a, a + n1, a + n1, a + n1 + n2, got.data(), comp);
        REQUIRE(got == want);
      }
}

// A comparator that throws at its k-th call leaves both inputs holding every element (each
// part puts back what it moved); one that answers at random writes a permutation.
TEST_CASE("merge in parts: a throwing or random comparator keeps every element", "[algo][sort][exceptions]") {
  const std::size_t n1 = 3000, n2 = 2000;
  auto rng = weft_test::seeded_rng(43);
  std::vector<int> keys(n1 + n2);
  for (int& k : keys) k = static_cast<int>(rng() % 500);
  std::sort(keys.begin(), keys.begin() + n1);
  std::sort(keys.begin() + n1, keys.end());
  auto all = keys;
  std::sort(all.begin(), all.end());
  const auto values = [](const std::vector<move_only>& v) {
    std::vector<int> out;
    for (const move_only& m : v) out.push_back(m.value());
    std::sort(out.begin(), out.end());
    return out;
  };
  for (const std::size_t at : {std::size_t{0}, std::size_t{5}, std::size_t{40}, std::size_t{2500}, std::size_t{4990}}) {
    CAPTURE(at);
    std::vector<move_only> in, out;
    for (const int k : keys) in.emplace_back(k);
    for (std::size_t i = 0; i < keys.size(); ++i) out.emplace_back(-1);
    std::size_t calls = 0;
    auto comp = [&](const move_only& a, const move_only& b) {
      if (calls++ == at) throw weft_test::test_error{};
      return a < b;
    };
    move_only* const a = in.data();
    REQUIRE_THROWS_AS(weft::detail::algo::merge_move_parts(a, a + n1, a + n1, a + n1 + n2, out.data(), comp),
                      weft_test::test_error);
    REQUIRE(values(in) == all);
  }
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    std::vector<int> in = keys, out(keys.size(), -1);
    auto coin = weft_test::seeded_rng(seed);
    auto comp = [&](int, int) { return (coin() & 1) != 0; };
    int* const a = in.data();
    weft::detail::algo::merge_move_parts(a, a + n1, a + n1, a + n1 + n2, out.data(), comp);
    std::sort(out.begin(), out.end());
    REQUIRE(out == all);
  }
}

TEST_CASE("run merge sort of strings on the calling thread keeps every element", "[algo][sort]") {
  for (const std::size_t n : {std::size_t{1000}, big}) {
    auto v = random_input<std::string>(n, 8, 5000);
    auto want = v;
    const auto by_number = [](const std::string& a, const std::string& b) { return key_of(a) < key_of(b); };
    std::stable_sort(want.begin(), want.end(), by_number);
    weft::stable_sort(weft::seq, v.begin(), v.end(), by_number);
    REQUIRE(v == want);
  }
}

TEST_CASE("stable_sort with seq: a throwing comparator leaves a permutation", "[algo][sort][exceptions]") {
  for (const shape s : {shape::random, shape::runs_of_random_length, shape::descending}) {
    const std::size_t n = 20011;
    std::vector<int> keys;
    for (const pair_t& p : shaped(n, s, 2)) keys.push_back(static_cast<int>(p.first));
    auto sorted_keys = keys;
    std::sort(sorted_keys.begin(), sorted_keys.end());
    auto rng = weft_test::seeded_rng(n);
    std::vector<std::size_t> points{0, 100, n, n * 4, n * 9};
    for (int i = 0; i < 4; ++i) points.push_back(rng() % (n * 14));
    for (const std::size_t at : points) {
      CAPTURE(static_cast<int>(s), at);
      std::vector<move_only> v;
      for (const int k : keys) v.emplace_back(k);
      std::size_t calls = 0;
      bool threw = false;
      try {
        weft::stable_sort(weft::seq, v.begin(), v.end(), [&](const move_only& a, const move_only& b) {
          if (calls++ == at) throw weft_test::test_error{};
          return a < b;
        });
      } catch (const weft_test::test_error&) {
        threw = true;
      }
      std::vector<int> got;
      for (const move_only& m : v) got.push_back(m.value());
      if (!threw) REQUIRE(got == sorted_keys);
      std::sort(got.begin(), got.end());
      REQUIRE(got == sorted_keys);
    }
  }
}
