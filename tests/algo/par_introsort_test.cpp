// SPDX-License-Identifier: MIT
// The parallel unstable comparison sort (kernels/par_introsort.hpp): the pool-wide
// partition at every length and chunk count, and weft::sort by a comparator on inputs long
// enough to take the parallel partition and the joins, in pools of 2 and 7 threads (also
// under the sanitizers, whose `big` is below the join cutoff): every order, a throwing
// comparator at many points (a permutation, the pool still usable), and a comparator that
// answers at random (a permutation, nothing touched outside the range); the cyclic
// partition of its chunks and of the introsort's short ranges, the block partition of its
// long ones, the pivot of a sample, and the branch-free sort of the leaves.
#include <weft/kernels/par_introsort.hpp>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

using pair_t = std::pair<std::uint32_t, std::uint32_t>;  // (key, input position)

// Above par_sort_leaf and long enough for several partition chunks at 7 threads.
constexpr std::size_t long_n = 4 * weft::detail::algo::par_sort_leaf + 17;

std::vector<pair_t> keyed(std::size_t n, order o, std::uint64_t salt) {
  const auto keys = ordered_input<int>(n, o, salt);
  std::vector<pair_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {static_cast<std::uint32_t>(keys[i]), static_cast<std::uint32_t>(i)};
  return v;
}

std::vector<pair_t> sorted_copy(std::vector<pair_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// A partition of n random (key, position) pairs by a predicate that throws at its at-th
// call, for each of `points`: the partition throws, and the range keeps every element.
template <class Partition>
void throwing_predicate_keeps_elements(std::size_t n, std::initializer_list<std::size_t> points,
                                       const Partition& partition) {
  auto rng = weft_test::seeded_rng(n);
  for (const std::size_t at : points) {
    CAPTURE(n, at);
    std::vector<pair_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = {static_cast<std::uint32_t>(rng() % 100), static_cast<std::uint32_t>(i)};
    const auto want = sorted_copy(v);
    std::size_t calls = 0;
    const auto left = [&](const pair_t& x) {
      if (calls++ == at) throw weft_test::test_error{};
      return x.first < 50;
    };
    REQUIRE_THROWS_AS(partition(v, left), weft_test::test_error);
    REQUIRE(sorted_copy(v) == want);
  }
}

}  // namespace

TEST_CASE("partition_par: every boundary layout over 2 to 7 chunks", "[algo][sort]") {
  weft::thread_pool pool({.num_threads = 2});
  auto rng = weft_test::seeded_rng(7);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n < 160; ++n) lengths.push_back(n);
  for (const std::size_t n : {700, 2049, 5000}) lengths.push_back(n);  // chunks past two blocks
  for (const std::size_t n : lengths)
    for (const std::size_t chunks : {2, 3, 7})
      for (const unsigned percent : {0u, 10u, 50u, 90u, 100u}) {
        CAPTURE(n, chunks, percent);
        std::vector<unsigned> v(n);
        for (auto& x : v) x = static_cast<unsigned>(rng() % 100);
        const auto want = [&] {
          auto w = v;
          std::sort(w.begin(), w.end());
          return w;
        }();
        const auto left = [percent](unsigned x) { return x < percent; };
        const bool random = percent % 20 == 0;  // both ways of partitioning a chunk
        const auto m = pool.install([&] {
          return random ? weft::detail::algo::partition_par<true>(v.begin(), v.end(), left, chunks)
                        : weft::detail::algo::partition_par<false>(v.begin(), v.end(), left, chunks);
        });
        const auto expect = static_cast<std::ptrdiff_t>(std::count_if(want.begin(), want.end(), left));
        REQUIRE(m - v.begin() == expect);
        REQUIRE(std::all_of(v.begin(), m, left));
        REQUIRE(std::none_of(m, v.end(), left));
        auto got = v;
        std::sort(got.begin(), got.end());
        REQUIRE(got == want);
      }
}

// The cyclic branchless Lomuto partition (kernels/seq_sort.hpp) that the introsort's
// partitions below 256 elements and the parallel partition's chunks use: every length to
// past its first loop iterations, on (key, position) pairs (it copies through a gap); a
// predicate that throws at its k-th call leaves every element in the range.
TEST_CASE("partition_cyclic: every length, and a throwing predicate keeps every element", "[algo][sort]") {
  static_assert(weft::detail::algo::copied_without_branch_v<std::vector<pair_t>::iterator>);
  auto rng = weft_test::seeded_rng(77);
  for (std::size_t n = 0; n <= 300; n += n < 20 ? 1 : 37) {
    for (const std::uint32_t cut : {0u, 1u, 50u, 99u, 100u}) {
      CAPTURE(n, cut);
      std::vector<pair_t> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = {static_cast<std::uint32_t>(rng() % 100), static_cast<std::uint32_t>(i)};
      const auto want = sorted_copy(v);
      const auto left = [cut](const pair_t& x) { return x.first < cut; };
      const auto m = weft::detail::algo::partition_cyclic(v.begin(), v.end(), left);
      REQUIRE(std::all_of(v.begin(), m, left));
      REQUIRE(std::none_of(m, v.end(), left));
      REQUIRE(sorted_copy(v) == want);
    }
  }
  throwing_predicate_keeps_elements(200, {0, 1, 57, 199}, [](auto& v, const auto& left) {
    return weft::detail::algo::partition_cyclic(v.begin(), v.end(), left);
  });
}

// The block partition of the introsort's ranges above 256 elements and of the parallel
// partition's chunks: its recorded pairs trade places along a cycle through one temporary.
// Every length from its first block pair to several, with keys drawn from few and from many
// values and pivots at both ends and in the middle: the split at the returned position,
// and every element kept; a predicate that throws at its k-th call keeps every element.
TEST_CASE("partition_blocks_by: the split and every element kept, at every block layout", "[algo][sort]") {
  using weft::detail::algo::partition_around;
  using weft::detail::algo::partition_blocks_by;
  auto rng = weft_test::seeded_rng(91);
  const auto by_key = [](const pair_t& a, const pair_t& b) { return a.first < b.first; };
  for (std::size_t n = 257; n <= 2200; n += 61) {
    for (const std::uint32_t values : {3u, 1000u}) {
      for (const std::uint32_t pivot : {0u, values / 2, values - 1}) {
        CAPTURE(n, values, pivot);
        std::vector<pair_t> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = {static_cast<std::uint32_t>(rng() % values), static_cast<std::uint32_t>(i)};
        v[0].first = pivot;
        const auto want = sorted_copy(v);
        auto comp = by_key;
        const auto j = partition_around<true>(v.begin(), v.end(), comp);
        REQUIRE(j->first == pivot);
        REQUIRE(std::all_of(v.begin(), j, [&](const pair_t& x) { return x.first < pivot; }));
        REQUIRE(std::none_of(std::next(j), v.end(), [&](const pair_t& x) { return x.first < pivot; }));
        REQUIRE(sorted_copy(v) == want);
      }
    }
  }
  throwing_predicate_keeps_elements(1000, {0, 63, 64, 300, 990}, [](auto& v, const auto& left) {
    return partition_blocks_by(v.begin(), v.end(), left);
  });
}

// The introsort's pivot above pivot_sample_min elements: the median of pivot_sample evenly
// spaced elements, at *first; a comparator that throws while the sample is sorted, or one
// that answers at random, leaves every element in the range.
TEST_CASE("choose_pivot: the sample's median above pivot_sample_min, and any comparator keeps every element", "[algo][sort]") {
  using namespace weft::detail::algo;
  auto rng = weft_test::seeded_rng(92);
  const auto by_key = [](const pair_t& a, const pair_t& b) { return a.first < b.first; };
  for (const std::size_t n : {std::size_t(pivot_sample_min) + 1, std::size_t(pivot_sample_min) * 3 + 5}) {
    for (const order o : orders) {
      CAPTURE(n, name(o));
      auto v = keyed(n, o, 3);
      std::vector<std::uint32_t> sample;
      for (std::ptrdiff_t i = 0; i < pivot_sample; ++i)
        sample.push_back(v[1 + static_cast<std::size_t>(i) * (n - 2) / (pivot_sample - 1)].first);
      std::sort(sample.begin(), sample.end());
      const auto want = sorted_copy(v);
      auto comp = by_key;
      choose_pivot(v.begin(), v.end(), comp);
      REQUIRE(v[0].first == sample[pivot_sample / 2]);
      REQUIRE(sorted_copy(v) == want);
    }
    for (const std::size_t at : {std::size_t{0}, std::size_t{1}, std::size_t{200}, std::size_t{700}}) {
      CAPTURE(n, at);
      auto v = keyed(n, order::random, 4);
      const auto want = sorted_copy(v);
      std::size_t calls = 0;
      auto comp = [&](const pair_t& a, const pair_t& b) {
        if (calls++ == at) throw weft_test::test_error{};
        return a.first < b.first;
      };
      REQUIRE_THROWS_AS(choose_pivot(v.begin(), v.end(), comp), weft_test::test_error);
      REQUIRE(sorted_copy(v) == want);
    }
    auto v = keyed(n, order::random, 5);
    const auto want = sorted_copy(v);
    auto coin = [&](const pair_t&, const pair_t&) { return (rng() & 1) != 0; };
    choose_pivot(v.begin(), v.end(), coin);
    REQUIRE(sorted_copy(v) == want);
  }
}

// An element with no default constructor: leaf_sort's buffers are bare storage.
struct no_default {
  explicit no_default(std::uint32_t k) : key(k) {}
  std::uint32_t key;
};

TEST_CASE("leaf_sort: every length and order, throwing and invalid comparators keep every element", "[algo][sort]") {
  using namespace weft::detail::algo;
  static_assert(copied_without_branch_v<std::vector<pair_t>::iterator>, "the branch-free leaves");
  const auto by_key = [](const pair_t& a, const pair_t& b) { return a.first < b.first; };
  for (std::size_t n = 0; n <= std::size_t(leaf_cutoff); ++n) {
    for (const order o : orders) {
      CAPTURE(n, name(o));
      auto v = keyed(n, o, n);
      const auto want = sorted_copy(v);
      auto comp = by_key;
      leaf_sort(v.begin(), v.end(), comp);
      REQUIRE(std::is_sorted(v.begin(), v.end(), by_key));
      REQUIRE(sorted_copy(v) == want);
    }
  }
  for (const std::size_t n : {std::size_t{8}, std::size_t{13}, std::size_t(leaf_cutoff)}) {
    const auto input = keyed(n, order::random, 21);
    std::size_t total = 0;
    {
      auto v = input;
      auto counting = [&](const pair_t& a, const pair_t& b) { return ++total, a.first < b.first; };
      leaf_sort(v.begin(), v.end(), counting);
    }
    for (std::size_t at = 0; at < total; ++at) {
      CAPTURE(n, at);
      auto v = input;
      std::size_t calls = 0;
      auto comp = [&](const pair_t& a, const pair_t& b) {
        if (calls++ == at) throw weft_test::test_error{};
        return a.first < b.first;
      };
      REQUIRE_THROWS_AS(leaf_sort(v.begin(), v.end(), comp), weft_test::test_error);
      REQUIRE(sorted_copy(v) == sorted_copy(input));
    }
  }
  auto rng = weft_test::seeded_rng(33);
  for (std::size_t n = 8; n <= std::size_t(leaf_cutoff); ++n) {
    CAPTURE(n);
    for (int round = 0; round < 50; ++round) {
      auto v = keyed(n, order::random, rng());
      const auto want = sorted_copy(v);
      auto coin = [&](const pair_t&, const pair_t&) { return (rng() & 1) != 0; };
      leaf_sort(v.begin(), v.end(), coin);
      REQUIRE(sorted_copy(v) == want);
    }
    auto v = keyed(n, order::few_unique, n);
    const auto want = sorted_copy(v);
    auto less_equal = [](const pair_t& a, const pair_t& b) { return a.first <= b.first; };
    leaf_sort(v.begin(), v.end(), less_equal);
    REQUIRE(sorted_copy(v) == want);
  }
  std::vector<no_default> nd;
  for (std::uint32_t k = 0; k < 20; ++k) nd.emplace_back((k * 7) % 20);
  auto nd_less = [](const no_default& a, const no_default& b) { return a.key < b.key; };
  leaf_sort(nd.begin(), nd.end(), nd_less);
  for (std::uint32_t k = 0; k < 20; ++k) REQUIRE(nd[k].key == k);
}

TEST_CASE("sort by a comparator in parallel: every order in pools of 2 and 7", "[algo][sort]") {
  const auto by_key = [](const pair_t& a, const pair_t& b) { return a.first < b.first; };
  for (const std::size_t threads : {2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    for (const order o : orders) {
      CAPTURE(threads, name(o));
      auto v = keyed(long_n, o, threads);
      const auto want = sorted_copy(v);
      pool.install([&] { weft::sort(weft::par, v.begin(), v.end(), by_key); });
      REQUIRE(std::is_sorted(v.begin(), v.end(), by_key));
      REQUIRE(sorted_copy(v) == want);
    }
    // A comparator that takes non-const references, as std::sort allows.
    auto w = keyed(long_n, order::random, 17);
    const auto want_w = sorted_copy(w);
    pool.install([&] {
      weft::sort(weft::par, w.begin(), w.end(), [](pair_t& a, pair_t& b) { return a.first < b.first; });
    });
    REQUIRE(std::is_sorted(w.begin(), w.end(), by_key));
    REQUIRE(sorted_copy(w) == want_w);
    // Non-trivial elements take the partition's branchy path.
    auto s = random_input<std::string>(long_n, 5);
    auto want = clone(s);
    std::sort(want.begin(), want.end());
    pool.install([&] { weft::sort(weft::par, s.begin(), s.end(), [](const auto& a, const auto& b) { return a < b; }); });
    REQUIRE(s == want);
  }
}

TEST_CASE("sort by a comparator in parallel: an exception leaves a permutation", "[algo][sort][exceptions]") {
  for (const std::size_t threads : {2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    const auto input = keyed(long_n, order::random, 11);
    const auto want = sorted_copy(input);
    auto rng = weft_test::seeded_rng(threads);
    std::vector<std::size_t> points{0, 1000, long_n, long_n * 5, long_n * 12};
    for (int i = 0; i < 6; ++i) points.push_back(rng() % (long_n * 18));
    for (const std::size_t at : points) {
      CAPTURE(threads, at);
      auto v = input;
      std::atomic<std::size_t> calls{0};
      const thrower t{&calls, at};
      bool threw = false;
      try {
        pool.install([&] {
          weft::sort(weft::par, v.begin(), v.end(), [&](const pair_t& a, const pair_t& b) {
            t.tick();
            return a.first < b.first;
          });
        });
      } catch (const weft_test::test_error&) {
        threw = true;
      }
      REQUIRE(sorted_copy(v) == want);
      if (!threw) REQUIRE(std::is_sorted(v.begin(), v.end(), [](auto& a, auto& b) { return a.first < b.first; }));
    }
    auto v = input;
    pool.install([&] { weft::sort(weft::par, v.begin(), v.end(), [](auto& a, auto& b) { return a.first < b.first; }); });
    REQUIRE(sorted_copy(v) == want);
  }
}

TEST_CASE("sort by a comparator in parallel: random answers leave a permutation", "[algo][sort][comparator-safety]") {
  for (const std::size_t threads : {2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    auto v = keyed(long_n, order::random, 13);
    const auto want = sorted_copy(v);
    std::atomic<std::uint64_t> state{threads};
    pool.install([&] {
      weft::sort(weft::par, v.begin(), v.end(), [&](const pair_t&, const pair_t&) {
        const std::uint64_t x = state.fetch_add(0x9E3779B97F4A7C15ull, std::memory_order_relaxed);
        return ((x >> 29) & 1) != 0;
      });
    });
    REQUIRE(sorted_copy(v) == want);
  }
}
