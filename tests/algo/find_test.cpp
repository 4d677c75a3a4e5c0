// SPDX-License-Identifier: MIT
// Searches and reductions (algorithm/find.hpp, algorithm/reduce.hpp) against std::.
#include <deque>
#include <execution>
#include <numeric>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

// The forms that take a binary predicate or a comparator. `near` (keys at most 1 apart) is
// not an equivalence, so a search that ignored it and compared with == would give other
// positions; `key_greater` reverses the order the default forms use. weft::par only: the
// policy does not change which comparator reaches the parallel code, and each policy would
// compile every search again.
template <class Policy, class T>
void check_predicate_forms(Policy pol, const std::vector<T>& v, const std::vector<T>& pattern,
                           const std::vector<T>& absent) {
  const auto near = [](const T& x, const T& y) { return std::abs(key_of(x) - key_of(y)) <= 1; };
  const auto key_greater = [](const T& x, const T& y) { return key_of(x) > key_of(y); };
  const auto b = v.begin(), e = v.end();
  const std::size_t n = v.size();
  for (const std::vector<T>* pat : {&pattern, &absent}) {
    REQUIRE(weft::search(pol, b, e, pat->begin(), pat->end(), near) ==
            std::search(b, e, pat->begin(), pat->end(), near));
    REQUIRE(weft::find_end(pol, b, e, pat->begin(), pat->end(), near) ==
            std::find_end(b, e, pat->begin(), pat->end(), near));
    REQUIRE(weft::find_first_of(pol, b, e, pat->begin(), pat->end(), near) ==
            std::find_first_of(b, e, pat->begin(), pat->end(), near));
  }
  const T three = make<T>(3);
  for (const int count : {0, 1, 2, 5, 9})
    REQUIRE(weft::search_n(pol, b, e, count, three, near) == std::search_n(b, e, count, three, near));

  // A copy whose keys move by at most one: equal under `near`, unequal under ==, until one
  // element far from the end moves by two.
  std::vector<T> shifted;
  for (std::size_t i = 0; i < n; ++i) shifted.push_back(make<T>(key_of(v[i]) + static_cast<int>(i % 2)));
  REQUIRE(weft::equal(pol, b, e, shifted.begin(), near));
  REQUIRE(weft::equal(pol, b, e, shifted.begin(), shifted.end(), near));
  REQUIRE(weft::mismatch(pol, b, e, shifted.begin(), shifted.end(), near).first == e);
  if (n > 0) {
    REQUIRE(weft::equal(pol, b, e, shifted.begin(), shifted.end()) == std::equal(b, e, shifted.begin(), shifted.end()));
    const std::size_t at = n - 1 - n / 5;
    shifted[at] = make<T>(key_of(v[at]) + 2);
    REQUIRE_FALSE(weft::equal(pol, b, e, shifted.begin(), near));
    REQUIRE_FALSE(weft::equal(pol, b, e, shifted.begin(), shifted.end(), near));
    REQUIRE(weft::mismatch(pol, b, e, shifted.begin(), shifted.end(), near) ==
            std::mismatch(b, e, shifted.begin(), shifted.end(), near));
    REQUIRE(weft::lexicographical_compare(pol, b, e, shifted.begin(), shifted.end(), key_greater) ==
            std::lexicographical_compare(b, e, shifted.begin(), shifted.end(), key_greater));
    REQUIRE(weft::lexicographical_compare(pol, shifted.begin(), shifted.end(), b, e, key_greater) ==
            std::lexicographical_compare(shifted.begin(), shifted.end(), b, e, key_greater));
  }
  REQUIRE_FALSE(weft::lexicographical_compare(pol, b, e, b, e, key_greater));

  // A min-heap (under key_greater) over the first half, then arbitrary elements.
  auto heap = clone(v);
  std::make_heap(heap.begin(), heap.begin() + static_cast<std::ptrdiff_t>(n / 2), key_greater);
  REQUIRE(weft::is_heap_until(pol, heap.begin(), heap.end(), key_greater) ==
          std::is_heap_until(heap.begin(), heap.end(), key_greater));
  REQUIRE(weft::is_heap(pol, heap.begin(), heap.end(), key_greater) ==
          std::is_heap(heap.begin(), heap.end(), key_greater));
  std::make_heap(heap.begin(), heap.end(), key_greater);
  REQUIRE(weft::is_heap(pol, heap.begin(), heap.end(), key_greater));
}

template <class T>
void check_searches(std::size_t n, std::uint64_t salt) {
  const auto v = random_input<T>(n, salt, 5);  // few distinct keys: matches everywhere
  const auto s = clone(v);
  const T probe = v.empty() ? make<T>(2) : make<T>(key_of(v[n / 2]));
  const auto is_probe = [&](const T& x) { return key_of(x) == key_of(probe); };
  const auto rare = [&](const T& x) { return key_of(x) == 4; };
  std::vector<T> found_pattern;  // three elements from a third of the way in
  for (std::size_t i = n / 3; i < std::min(n, n / 3 + 3); ++i) found_pattern.push_back(make<T>(key_of(v[i])));
  const std::vector<T>& pattern = found_pattern;
  const std::vector<T> absent{make<T>(99), make<T>(98)};
  const auto b = v.begin(), e = v.end();
  for_policies<T>([&](auto pol) {
    REQUIRE(weft::find(pol, b, e, probe) == std::find(b, e, probe));
    REQUIRE(weft::find_if(pol, b, e, rare) == std::find_if(b, e, rare));
    REQUIRE(weft::find_if_not(pol, b, e, is_probe) == std::find_if_not(b, e, is_probe));
    REQUIRE(weft::all_of(pol, b, e, is_probe) == std::all_of(b, e, is_probe));
    REQUIRE(weft::any_of(pol, b, e, rare) == std::any_of(b, e, rare));
    REQUIRE(weft::none_of(pol, b, e, rare) == std::none_of(b, e, rare));
    REQUIRE(weft::adjacent_find(pol, b, e) == std::adjacent_find(b, e));
    const auto key_less = [](const T& x, const T& y) { return key_of(x) < key_of(y); };
    REQUIRE(weft::adjacent_find(pol, b, e, key_less) == std::adjacent_find(b, e, key_less));
    REQUIRE(weft::find_first_of(pol, b, e, absent.begin(), absent.end()) == e);
    REQUIRE(weft::find_first_of(pol, b, e, pattern.begin(), pattern.end()) ==
            std::find_first_of(b, e, pattern.begin(), pattern.end()));
    for (const std::vector<T>* pat : {&pattern, &absent}) {
      REQUIRE(weft::search(pol, b, e, pat->begin(), pat->end()) ==
              std::search(b, e, pat->begin(), pat->end()));
      REQUIRE(weft::find_end(pol, b, e, pat->begin(), pat->end()) ==
              std::find_end(b, e, pat->begin(), pat->end()));
    }
    for (const int count : {0, 1, 2, 3, 6})
      REQUIRE(weft::search_n(pol, b, e, count, probe) == std::search_n(b, e, count, probe));
    REQUIRE(weft::equal(pol, b, e, s.begin()));
    REQUIRE(weft::equal(pol, b, e, s.begin(), s.end()));
    REQUIRE(weft::mismatch(pol, b, e, s.begin()).first == e);
    REQUIRE_FALSE(weft::lexicographical_compare(pol, b, e, s.begin(), s.end()));
    if (n > 0) {
      auto t = clone(v);
      t[n - 1 - n / 7] = make<T>(77);
      const auto want = std::mismatch(b, e, t.begin(), t.end());
      REQUIRE(weft::mismatch(pol, b, e, t.begin(), t.end()) == want);
      REQUIRE(weft::mismatch(pol, b, e, t.begin(), std::equal_to<>{}) == want);
      REQUIRE_FALSE(weft::equal(pol, b, e, t.begin()));
      REQUIRE_FALSE(weft::equal(pol, b, e, t.begin(), std::prev(t.end())));
      REQUIRE(weft::lexicographical_compare(pol, b, e, t.begin(), t.end()) ==
              std::lexicographical_compare(b, e, t.begin(), t.end()));
      REQUIRE(weft::lexicographical_compare(pol, b, std::prev(e), s.begin(), s.end()));
    }
    REQUIRE(weft::is_partitioned(pol, b, e, rare) == std::is_partitioned(b, e, rare));
    auto part = clone(v);
    std::partition(part.begin(), part.end(), rare);
    REQUIRE(weft::is_partitioned(pol, part.begin(), part.end(), rare));
    auto heap = clone(v);
    std::make_heap(heap.begin(), heap.begin() + static_cast<std::ptrdiff_t>(n / 2));
    REQUIRE(weft::is_heap_until(pol, heap.begin(), heap.end()) ==
            std::is_heap_until(heap.begin(), heap.end()));
    REQUIRE(weft::is_heap(pol, heap.begin(), heap.end()) == std::is_heap(heap.begin(), heap.end()));
  });
  check_predicate_forms(weft::par, v, pattern, absent);
}

template <class T>
void check_reductions(std::size_t n, std::uint64_t salt) {
  const auto v = random_input<T>(n, salt, 50);  // many equal keys: tie rules show
  const auto b = v.begin(), e = v.end();
  const auto key_less = [](const T& x, const T& y) { return key_of(x) < key_of(y); };
  const auto odd = [](const T& x) { return key_of(x) % 2 == 1; };
  for_policies<T>([&](auto pol) {
    REQUIRE(weft::count(pol, b, e, make<T>(7)) == std::count(b, e, make<T>(7)));
    REQUIRE(weft::count_if(pol, b, e, odd) == std::count_if(b, e, odd));
    REQUIRE(weft::min_element(pol, b, e) == std::min_element(b, e));
    REQUIRE(weft::max_element(pol, b, e) == std::max_element(b, e));
    REQUIRE(weft::minmax_element(pol, b, e) == std::minmax_element(b, e));
    REQUIRE(weft::min_element(pol, b, e, key_less) == std::min_element(b, e, key_less));
    REQUIRE(weft::max_element(pol, b, e, key_less) == std::max_element(b, e, key_less));
    REQUIRE(weft::minmax_element(pol, b, e, key_less) == std::minmax_element(b, e, key_less));
    const auto key = [](const T& x) { return static_cast<long>(key_of(x)); };
    const long want = std::transform_reduce(b, e, 3L, std::plus<>{}, key);
    REQUIRE(weft::transform_reduce(pol, b, e, 3L, std::plus<>{}, key) == want);
    const auto bigger = [](long a, long c) { return std::max(a, c); };
    REQUIRE(weft::transform_reduce(pol, b, e, -1L, bigger, key) ==
            std::transform_reduce(b, e, -1L, bigger, key));
    std::vector<long> keys(n);
    std::transform(b, e, keys.begin(), key);
    REQUIRE(weft::reduce(pol, keys.begin(), keys.end()) == want - 3);
    REQUIRE(weft::reduce(pol, keys.begin(), keys.end(), 3L) == want);
    REQUIRE(weft::reduce(pol, keys.begin(), keys.end(), 1L, bigger) ==
            std::reduce(keys.begin(), keys.end(), 1L, bigger));
    REQUIRE(weft::transform_reduce(pol, keys.begin(), keys.end(), keys.begin(), 0L) ==
            std::inner_product(keys.begin(), keys.end(), keys.begin(), 0L));
    const auto same = [](long a, long c) { return a == c ? 1L : 0L; };
    REQUIRE(weft::transform_reduce(pol, keys.begin(), keys.end(), keys.begin(), 0L,
                                   std::plus<>{}, same) == static_cast<long>(n));
  });
}

}  // namespace

TEST_CASE("searches equal std:: at every length, int and string", "[algo]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    check_searches<int>(n, 1);
    check_searches<std::string>(n, 2);
  }
}

TEST_CASE("reductions equal std:: at every length, ties included", "[algo]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    check_reductions<int>(n, 3);
    check_reductions<std::string>(n, 4);
    const auto m = random_input<move_only>(n, 5, 50);
    REQUIRE(weft::min_element(weft::par, m.begin(), m.end()) == std::min_element(m.begin(), m.end()));
    REQUIRE(weft::minmax_element(weft::par, m.begin(), m.end()) ==
            std::minmax_element(m.begin(), m.end()));
    REQUIRE(weft::count_if(weft::par, m.begin(), m.end(), [](const move_only& x) {
              return x.value() < 10;
            }) == std::count_if(m.begin(), m.end(), [](const move_only& x) { return x.value() < 10; }));
  }
}

TEST_CASE("reduce keeps left-to-right order for a non-commutative operation", "[algo]") {
  const auto v = random_input<std::string>(big, 6);
  const std::string want = std::accumulate(v.begin(), v.end(), std::string("<"));
  REQUIRE(weft::reduce(weft::par, v.begin(), v.end(), std::string("<"), std::plus<>{}) == want);
  REQUIRE(weft::transform_reduce(weft::par, v.begin(), v.end(), std::string("<"), std::plus<>{},
                                 [](const std::string& s) { return s; }) == want);
  REQUIRE(weft::reduce(weft::seq, v.begin(), v.end(), std::string("<"), std::plus<>{}) == want);
  // The binary form: each pair contributes its two strings, in order.
  std::string pairs = "<";
  for (std::size_t i = 0; i < v.size(); ++i) pairs += v[i] + v[v.size() - 1 - i];
  for (auto policy_is_par : {true, false}) {
    const auto joined = [&](auto policy) {
      return weft::transform_reduce(policy, v.begin(), v.end(), v.rbegin(), std::string("<"),
                                    std::plus<>{},
                                    [](const std::string& a, const std::string& b) { return a + b; });
    };
    REQUIRE((policy_is_par ? joined(weft::par) : joined(weft::seq)) == pairs);
  }
}

TEST_CASE("a find over 2^40 positions stops at an early match", "[algo]") {
  // A counting "range" far too long to scan: a hang would be the failure.
  const std::size_t huge = std::size_t{1} << 40;
  auto first = std::views::iota(std::size_t{0}, huge).begin();
  auto last = std::views::iota(std::size_t{0}, huge).end();
  REQUIRE(*weft::find_if(weft::par, first, last, [](std::size_t i) { return i == 12345; }) == 12345);
  REQUIRE(weft::any_of(weft::par, first, last, [](std::size_t i) { return i > 999; }));
  // The last occurrence is searched from the end, at one thread too.
  const std::size_t pattern[] = {huge - 700, huge - 699};
  weft::thread_pool one({.num_threads = 1});
  for (weft::thread_pool* pool : {&one, static_cast<weft::thread_pool*>(nullptr)}) {
    const auto at = [&] { return weft::find_end(weft::par, first, last, pattern, pattern + 2); };
    REQUIRE(*(pool ? pool->install(at) : at()) == huge - 700);
  }
}

namespace {
// The first index in [lo, hi) where v is nonzero, or hi: a block function of its own type,
// so that it has its own learned-cost record.
struct first_nonzero_block {
  const std::vector<int>* v;
  std::size_t operator()(std::size_t lo, std::size_t hi) const {
    for (std::size_t i = lo; i < hi; ++i)
      if ((*v)[i] != 0) return i;
    return hi;
  }
};
}  // namespace

TEST_CASE("a search corrects a learned cost far above what its items cost", "[algo][engine]") {
  // What a cold first call can leave behind: a cost per item so high that the first chunk
  // holds a single item, and every later call, its match 200 items in, goes parallel. A
  // sampled call (one in 16 on a thread) that runs whole chunks before the match must
  // learn the real cost. Any plausible cost of a comparison is under a thousandth of the
  // planted one, but a sampled call preempted inside its chunk (a loaded machine, a
  // sanitizer) can measure more than that; the next sampled call corrects it in turn, so
  // the calls go on in rounds until the record holds such a cost. Only a search that never
  // relearns exhausts the rounds.
  using weft::detail::site_record;
  using weft::detail::algo::find_first_block;
  std::vector<int> v(100'000, 0);
  v[200] = 1;
  constexpr float planted = 1e6f;
  auto& record = site_record<first_nonzero_block>.at(0);  // the calls below run at fold depth 0
  const auto plant = [&] {
    record.ticks_per_item.store(planted);
    record.fits_waking_fork.store(1);
    record.fits_cheap_fork.store(1);
  };
  // Rounds of 40 calls (two sampled ones on each calling thread) until the cost is plausible
  // and `fits` has grown with it; false if 100 rounds did not get there.
  const auto corrects = [&](const std::atomic<std::size_t>& fits) {
    for (int round = 0; round < 100; ++round) {
      for (int i = 0; i < 40; ++i)
        REQUIRE(find_first_block(v.size(), first_nonzero_block{&v}) == 200);
      if (record.ticks_per_item.load() < planted / 1000 && fits.load() > 1) return true;
    }
    return false;
  };
  plant();
  CHECK(corrects(record.fits_waking_fork));  // from main: the global pool
  plant();
  weft::thread_pool pool({.num_threads = 2});
  CHECK(pool.install([&] { return corrects(record.fits_cheap_fork); }));
}

TEST_CASE("searches and reductions: exceptions propagate, the pool stays usable", "[algo]") {
  const auto v = random_input<int>(big, 7);
  for (const std::size_t at : {std::size_t{0}, std::size_t{5000}, big * 9 / 10}) {
    CAPTURE(at);
    std::atomic<std::size_t> calls{0};
    const thrower t{&calls, at};
    const auto never = [&](int) { t.tick(); return false; };
    REQUIRE_THROWS_AS(weft::find_if(weft::par, v.begin(), v.end(), never), weft_test::test_error);
    calls = 0;
    REQUIRE_THROWS_AS(weft::count_if(weft::par, v.begin(), v.end(), never), weft_test::test_error);
    calls = 0;
    REQUIRE_THROWS_AS(weft::transform_reduce(weft::par, v.begin(), v.end(), 0L, std::plus<>{},
                                             [&](int x) { t.tick(); return long{x}; }),
                      weft_test::test_error);
    calls = 0;
    REQUIRE_THROWS_AS(weft::min_element(weft::par, v.begin(), v.end(), [&](int a, int b) {
                        t.tick();
                        return a < b;
                      }),
                      weft_test::test_error);
  }
  REQUIRE(weft::count(weft::par, v.begin(), v.end(), v[0]) == std::count(v.begin(), v.end(), v[0]));
}

TEST_CASE("find_if over small trivially copyable elements: a match at every place of a group",
          "[algo]") {
  // Such elements are tested 16 at a time (algorithm/find.hpp, search_satisfying): a match at
  // each offset of a group, before and after group and block edges, on 1 and 2 threads, in a
  // vector and a deque (random access, not contiguous); forms the grouped path must leave to
  // std::find_if (a predicate taking a mutable reference, one with a non-const call) agree too.
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16},
                                  std::size_t{17}, std::size_t{48}, std::size_t{1000}, big}) {
        std::vector<std::int16_t> v(n, 0);
        std::deque<std::int16_t> d(n, 0);
        std::vector<std::size_t> places;
        for (std::size_t at = 0; at < std::min<std::size_t>(n, 40); ++at) places.push_back(at);
        for (std::size_t at = n > 40 ? n - 40 : n; at < n; ++at) places.push_back(at);
        if (n > 100) places.insert(places.end(), {n / 2 - 1, n / 2, n / 3 + 7});
        for (const std::size_t at : places) {
          CAPTURE(n, at);
          v[at] = d[at] = 7;
          if (at + 5 < n) v[at + 5] = d[at + 5] = 7;  // a later match must not win
          const auto is7 = [](std::int16_t x) { return x == 7; };
          REQUIRE(weft::find_if(weft::par, v.begin(), v.end(), is7) - v.begin() ==
                  static_cast<std::ptrdiff_t>(at));
          REQUIRE(weft::find(weft::par, d.begin(), d.end(), std::int16_t{7}) - d.begin() ==
                  static_cast<std::ptrdiff_t>(at));
          REQUIRE(weft::find_if_not(weft::par, v.begin(), v.end(),
                                    [](std::int16_t x) { return x == 0; }) - v.begin() ==
                  static_cast<std::ptrdiff_t>(at));
          REQUIRE(weft::any_of(weft::par, v.begin(), v.end(), is7));
          REQUIRE_FALSE(weft::all_of(weft::par, v.begin(), v.end(),
                                     [](std::int16_t x) { return x == 0; }));
          const auto mutable_ref = [](std::int16_t& x) { return x == 7; };
          REQUIRE(weft::find_if(weft::par, v.begin(), v.end(), mutable_ref) - v.begin() ==
                  static_cast<std::ptrdiff_t>(at));
          // Each block calls its own copy of a mutable predicate (std::find_if takes it by value).
          const auto counting = [calls = 0](std::int16_t x) mutable { return ++calls, x == 7; };
          REQUIRE(weft::find_if(weft::par, v.begin(), v.end(), counting) - v.begin() ==
                  static_cast<std::ptrdiff_t>(at));
          // any_of, all_of and none_of search unordered (detail::algo::any_index): grouped
          // over the vector, std::find_if per block over the deque and for the other forms.
          REQUIRE(weft::any_of(weft::par, d.begin(), d.end(), is7));
          REQUIRE_FALSE(weft::none_of(weft::par, v.begin(), v.end(), is7));
          REQUIRE_FALSE(weft::all_of(weft::par, d.begin(), d.end(),
                                     [](std::int16_t x) { return x == 0; }));
          REQUIRE(weft::any_of(weft::par, v.begin(), v.end(), mutable_ref));
          REQUIRE(weft::any_of(weft::par, v.begin(), v.end(), counting));
          v[at] = d[at] = 0;
          if (at + 5 < n) v[at + 5] = d[at + 5] = 0;
        }
        REQUIRE(weft::find(weft::par, v.begin(), v.end(), std::int16_t{7}) == v.end());
        REQUIRE(weft::none_of(weft::par, d.begin(), d.end(),
                              [](std::int16_t x) { return x != 0; }));
        REQUIRE_FALSE(weft::any_of(weft::par, v.begin(), v.end(),
                                   [](std::int16_t x) { return x == 7; }));
        REQUIRE(weft::all_of(weft::par, v.begin(), v.end(), [](std::int16_t x) { return x == 0; }));
      }
    });
  }
}

TEST_CASE("searches over pairs of small elements: a difference at every place of a group",
          "[algo]") {
  // mismatch, lexicographical_compare, adjacent_find, is_sorted_until and is_heap_until test
  // such elements 16 at a time (detail::algo::first_index<true>), and equal compares blocks
  // with std::equal: the first place that decides, at each offset of a group, on 1 and 2
  // threads, against std::.
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      for (const std::size_t n : {std::size_t{2}, std::size_t{17}, std::size_t{33},
                                  std::size_t{1000}, big}) {
        std::vector<std::int32_t> up(n);
        std::iota(up.begin(), up.end(), 0);
        std::vector<std::int32_t> heap(up.rbegin(), up.rend());  // descending: a max-heap
        std::vector<std::size_t> places;
        for (std::size_t at = 0; at < std::min<std::size_t>(n - 1, 40); ++at) places.push_back(at);
        for (std::size_t at = n > 41 ? n - 41 : n - 1; at + 1 < n; ++at) places.push_back(at);
        if (n > 100) places.insert(places.end(), {n / 2 - 1, n / 2, n / 3 + 7});
        for (const std::size_t at : places) {
          CAPTURE(n, at);
          auto other = up;
          other[at] = -5;
          const auto b = up.begin(), e = up.end();
          REQUIRE(weft::mismatch(weft::par, b, e, other.begin()) ==
                  std::mismatch(b, e, other.begin()));
          REQUIRE(weft::mismatch(weft::par, b, e, other.begin(), other.end(), std::equal_to<>{}) ==
                  std::mismatch(b, e, other.begin(), other.end()));
          REQUIRE_FALSE(weft::equal(weft::par, b, e, other.begin()));
          REQUIRE_FALSE(weft::equal(weft::par, b, e, other.begin(), other.end(),
                                    [](int x, int y) { return x == y; }));
          REQUIRE(weft::lexicographical_compare(weft::par, other.begin(), other.end(), b, e));
          REQUIRE_FALSE(weft::lexicographical_compare(weft::par, b, e, other.begin(), other.end()));
          auto flat = up;  // a repeat at `at`, a descent right after it
          flat[at + 1] = flat[at];
          REQUIRE(weft::adjacent_find(weft::par, flat.begin(), flat.end()) ==
                  std::adjacent_find(flat.begin(), flat.end()));
          auto dip = up;
          dip[at + 1] = -1;
          REQUIRE(weft::is_sorted_until(weft::par, dip.begin(), dip.end()) ==
                  std::is_sorted_until(dip.begin(), dip.end()));
          REQUIRE(weft::is_sorted_until(weft::par, dip.begin(), dip.end(), std::less<>{}) -
                      dip.begin() ==
                  static_cast<std::ptrdiff_t>(at + 1));
          auto broken = heap;  // a child larger than its parent at at + 1
          broken[at + 1] = 1 << 30;
          REQUIRE(weft::is_heap_until(weft::par, broken.begin(), broken.end()) ==
                  std::is_heap_until(broken.begin(), broken.end()));
        }
        REQUIRE(weft::equal(weft::par, up.begin(), up.end(), up.begin()));
        REQUIRE(weft::is_sorted(weft::par, up.begin(), up.end()));
        REQUIRE(weft::is_heap(weft::par, heap.begin(), heap.end()));
        REQUIRE(weft::adjacent_find(weft::par, up.begin(), up.end()) == up.end());
      }
    });
  }
}
