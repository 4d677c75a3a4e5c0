// SPDX-License-Identifier: MIT
// The sequential stable sort (kernels/run_merge_sort.hpp) on inputs made of runs: every
// length up to past two minimum runs, run shapes that reach each merge direction and the
// stack's rules, stability against std::stable_sort, and a throwing comparator on the
// calling thread (weft::seq), where no parallel merge level takes over.
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
