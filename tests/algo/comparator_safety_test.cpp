// SPDX-License-Identifier: MIT
// Any comparator is safe: every algorithm that takes a comparator, given one that is no
// strict weak order (`<=`, random answers, always true, always false) or one that throws,
// returns or throws, stays inside its ranges (ASan), and leaves a permutation of the input
// where it rearranges it. weft::invalid_comparator is an allowed outcome; the order is not
// checked. Pools of 1, 2 and 7 threads: the splits, and so the merge-path searches that an
// invalid comparator misleads, differ with the thread count. The sequential policy and
// elements whose moves may throw (both run the kernels on the calling thread) at lengths
// around the insertion-sort and stable-run cutoffs.
#include <functional>
#include <stdexcept>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

enum class kind { le, random, always_true, always_false, throws };
constexpr kind kinds[] = {kind::le, kind::random, kind::always_true, kind::always_false, kind::throws};
const char* name(kind k) {
  switch (k) {
    case kind::le: return "<=";
    case kind::random: return "random";
    case kind::always_true: return "always true";
    case kind::always_false: return "always false";
    case kind::throws: return "throws";
  }
  return "?";
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
  return x ^ (x >> 31);
}

// A string whose moves may throw (they never do): the algorithms' calling-thread fallbacks.
struct loose_string {
  std::string s;
  loose_string() = default;
  loose_string(std::string v) : s(std::move(v)) {}  // NOLINT: implicit, as a std::string
  loose_string(const loose_string&) = default;
  loose_string(loose_string&& o) noexcept(false) : s(std::move(o.s)) {}
  loose_string& operator=(const loose_string&) = default;
  loose_string& operator=(loose_string&& o) noexcept(false) {
    s = std::move(o.s);
    return *this;
  }
  operator const std::string&() const { return s; }  // NOLINT: compared as a std::string
  friend bool operator<(const loose_string& a, const loose_string& b) { return a.s < b.s; }
  friend bool operator==(const loose_string& a, const loose_string& b) { return a.s == b.s; }
};
static_assert(!std::is_nothrow_move_constructible_v<loose_string>);

// One comparator type for every kind, so that each algorithm is compiled once per element
// type. Random answers come from the seed and the call's number (counted across threads): a
// fixed sequence at one thread. `throws` is `<` until its throw_at-th call.
struct bad_comp {
  kind k;
  std::atomic<std::uint64_t>* calls;
  std::uint64_t seed;
  std::uint64_t throw_at;
  template <class T>
  bool operator()(const T& at, const T& bt) const {
    const std::string& a = at;
    const std::string& b = bt;
    const std::uint64_t c = calls->fetch_add(1, std::memory_order_relaxed);
    switch (k) {
      case kind::le: return a <= b;
      case kind::random: return (mix(seed + c) & 1) != 0;
      case kind::always_true: return true;
      case kind::always_false: return false;
      case kind::throws:
        if (c == throw_at) throw weft_test::test_error{0};
        return a < b;
    }
    return false;
  }
};

using vec = std::vector<std::string>;
// A multiset as its sorted elements (sorting a copy is several times faster than a map).
using multiset = vec;

template <class It>
multiset counts(It first, It last) {
  multiset m(first, last);
  std::sort(m.begin(), m.end());
  return m;
}

// Whether every element of [first, last) is one of `pool`'s: copies of input elements, no
// moved-from or default values.
bool drawn_from(vec::const_iterator first, vec::const_iterator last, const multiset& pool) {
  for (; first != last; ++first)
    if (!std::binary_search(pool.begin(), pool.end(), *first)) return false;
  return true;
}

// Calls f, accepting the exceptions a bad comparator may cause; returns whether it threw.
template <class F>
bool outcome(F&& f) {
  try {
    f();
  } catch (const weft_test::test_error&) {
    return true;
  } catch (const weft::invalid_comparator& e) {
    REQUIRE(std::string(e.what()).find("comparator") != std::string::npos);
    return true;
  }
  return false;
}

// Input with duplicates (so `<=` differs from `<`), halves sorted by `<` for the algorithms
// whose inputs must be sorted.
vec input(std::size_t n, std::uint64_t salt) {
  return random_input<std::string>(n, salt, static_cast<int>(n / 2 + 1));
}

template <class V>
void sort_halves(V& v) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::sort(v.begin(), mid);
  std::sort(mid, v.end());
}

template <class F>
bool attempt(const bad_comp& comp, F&& f) {
  // Each call counts its comparator calls from 0: `throws` then throws in every algorithm
  // that makes more than throw_at calls.
  comp.calls->store(0, std::memory_order_relaxed);
  return outcome(f);
}

// Every algorithm that rearranges a range once on a copy of `in` (as elements of type T),
// with comp: the range must stay a permutation of its input.
template <class T, class Policy>
void run_rearranging(const vec& in, const bad_comp& comp, Policy policy) {
  const auto whole = counts(in.begin(), in.end());
  const auto mid_of = [](std::vector<T>& v) { return v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2); };
  const auto rearranges = [&](const char* what, auto&& call) {
    CAPTURE(what);
    std::vector<T> v(in.begin(), in.end());
    attempt(comp, [&] { call(v); });
    REQUIRE(counts(v.begin(), v.end()) == whole);
  };
  rearranges("sort", [&](auto& v) { weft::sort(policy, v.begin(), v.end(), comp); });
  rearranges("stable_sort", [&](auto& v) { weft::stable_sort(policy, v.begin(), v.end(), comp); });
  rearranges("partial_sort", [&](auto& v) { weft::partial_sort(policy, v.begin(), mid_of(v), v.end(), comp); });
  rearranges("partial_sort, 3 smallest", [&](auto& v) {
    weft::partial_sort(policy, v.begin(), v.begin() + std::min<std::ptrdiff_t>(3, std::ssize(v)), v.end(), comp);
  });
  rearranges("nth_element", [&](auto& v) { weft::nth_element(policy, v.begin(), mid_of(v), v.end(), comp); });
  rearranges("inplace_merge", [&](auto& v) {
    sort_halves(v);
    weft::inplace_merge(policy, v.begin(), mid_of(v), v.end(), comp);
  });
  rearranges("inplace_merge, unsorted halves", [&](auto& v) {
    weft::inplace_merge(policy, v.begin(), mid_of(v), v.end(), comp);
  });
  if constexpr (std::is_same_v<Policy, weft::execution::parallel_policy> && std::is_same_v<T, std::string>) {
    rearranges("sort(r)", [&](auto& v) { weft::sort(v, comp); });
    rearranges("stable_sort(r)", [&](auto& v) { weft::stable_sort(v, comp); });
  }
}

// Every comparator-taking algorithm once on a copy of `in`, with comp; checks what holds
// for any comparator.
template <class Policy>
void run_all(const vec& in, const bad_comp& comp, Policy policy) {
  const std::size_t n = in.size();
  const auto attempt = [&](auto&& f) { return ::attempt(comp, f); };
  const auto whole = counts(in.begin(), in.end());
  const auto mid_of = [](vec& v) { return v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2); };
  run_rearranging<std::string>(in, comp, policy);

  // Copies: the output stays inside the space a valid comparator would need, and holds
  // copies of input elements. merge writes every output slot, each input element once
  // unless the comparator's answers change from call to call.
  for (const bool sorted : {true, false}) {
    CAPTURE(sorted);
    vec v = in;
    if (sorted) sort_halves(v);
    const auto mid = mid_of(v);
    vec out(n);
    vec::iterator merged;
    if (!attempt([&] { merged = weft::merge(policy, v.begin(), mid, mid, v.end(), out.begin(), comp); })) {
      REQUIRE(merged == out.end());
      REQUIRE(drawn_from(out.begin(), out.end(), whole));
      // Each split is searched once: a permutation whatever the answers.
      REQUIRE(counts(out.begin(), out.end()) == whole);
    }
    const auto set_op = [&](const char* what, std::size_t bound, auto&& call) {
      CAPTURE(what);
      vec o(n);
      vec::iterator end = o.begin();
      if (!attempt([&] { end = call(o.begin()); })) {
        REQUIRE(end >= o.begin());
        REQUIRE(static_cast<std::size_t>(end - o.begin()) <= bound);
        REQUIRE(drawn_from(o.begin(), end, whole));
      }
    };
    const std::size_t n1 = v.size() / 2, n2 = n - n1;
    set_op("set_union", n, [&](vec::iterator o) { return weft::set_union(policy, v.begin(), mid, mid, v.end(), o, comp); });
    set_op("set_intersection", std::min(n1, n2), [&](vec::iterator o) { return weft::set_intersection(policy, v.begin(), mid, mid, v.end(), o, comp); });
    set_op("set_difference", n1, [&](vec::iterator o) { return weft::set_difference(policy, v.begin(), mid, mid, v.end(), o, comp); });
    set_op("set_symmetric_difference", n, [&](vec::iterator o) { return weft::set_symmetric_difference(policy, v.begin(), mid, mid, v.end(), o, comp); });
    set_op("partial_sort_copy", n2, [&](vec::iterator o) { return weft::partial_sort_copy(policy, v.begin(), v.end(), o, o + static_cast<std::ptrdiff_t>(n2), comp); });
    attempt([&] { (void)weft::includes(policy, v.begin(), mid, mid, v.end(), comp); });
  }

  // Searches: an iterator into the range (or last), an item of the input.
  const auto in_range = [&](vec::const_iterator it, bool may_be_last) {
    REQUIRE(it >= in.begin());
    REQUIRE(it <= in.end());
    if (!may_be_last && n > 0) REQUIRE(it != in.end());
  };
  vec::const_iterator it;
  if (!attempt([&] { it = weft::min_element(policy, in.begin(), in.end(), comp); })) in_range(it, false);
  if (!attempt([&] { it = weft::max_element(policy, in.begin(), in.end(), comp); })) in_range(it, false);
  std::pair<vec::const_iterator, vec::const_iterator> mm;
  if (!attempt([&] { mm = weft::minmax_element(policy, in.begin(), in.end(), comp); })) {
    in_range(mm.first, false);
    in_range(mm.second, false);
  }
  if (!attempt([&] { it = weft::is_sorted_until(policy, in.begin(), in.end(), comp); })) in_range(it, true);
  attempt([&] { (void)weft::is_sorted(policy, in.begin(), in.end(), comp); });
  std::optional<std::string> best;
  if (!attempt([&] { best = weft::iter(in).min_by(comp); })) {
    REQUIRE(best.has_value() == (n > 0));
    if (best) REQUIRE(std::binary_search(whole.begin(), whole.end(), *best));
  }
  if (!attempt([&] { best = weft::iter(in).max_by(comp); })) {
    REQUIRE(best.has_value() == (n > 0));
    if (best) REQUIRE(std::binary_search(whole.begin(), whole.end(), *best));
  }
}

}  // namespace

// The reproducers of issue 40, at the lengths where they read outside their ranges.
TEST_CASE("comparator safety: merge with <= on 7 strings stays in its inputs", "[algo][comparator-safety]") {
  for (const std::size_t threads : {1, 2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      vec v = input(7, 1);
      vec out(7);
      const auto mid = v.begin() + 3;
      std::atomic<std::uint64_t> calls{0};
      const bad_comp le{kind::le, &calls, 0, 0};
      if (!outcome([&] { weft::merge(weft::par, v.begin(), mid, mid, v.end(), out.begin(), le); }))
        REQUIRE(drawn_from(out.begin(), out.end(), counts(v.begin(), v.end())));
    });
  }
}

TEST_CASE("comparator safety: sort with random answers leaves a permutation", "[algo][comparator-safety]") {
  for (const std::size_t threads : {1, 2, 7}) {
    CAPTURE(threads);
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      const vec in = input(100003, 2);
      vec v = in;
      std::atomic<std::uint64_t> calls{0};
      outcome([&] { weft::sort(weft::par, v.begin(), v.end(), bad_comp{kind::random, &calls, 3, 0}); });
      REQUIRE(counts(v.begin(), v.end()) == counts(in.begin(), in.end()));
    });
  }
}

TEST_CASE("comparator safety: merge with random answers writes a permutation", "[algo][comparator-safety]") {
  for (const std::size_t threads : {1, 2, 7}) {
    CAPTURE(threads);
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      vec v = input(100003, 4);
      sort_halves(v);
      const auto mid = v.begin() + 100003 / 2;
      vec out(v.size());
      std::atomic<std::uint64_t> calls{0};
      if (!outcome([&] { weft::merge(weft::par, v.begin(), mid, mid, v.end(), out.begin(), bad_comp{kind::random, &calls, 5, 0}); }))
        REQUIRE(counts(out.begin(), out.end()) == counts(v.begin(), v.end()));
    });
  }
}

TEST_CASE("comparator safety: inplace_merge on unsorted halves stays in bounds", "[algo][comparator-safety]") {
  for (const std::size_t threads : {1, 2, 7}) {
    CAPTURE(threads);
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      const vec in = input(100003, 3);
      vec v = in;
      const auto mid = v.begin() + 100003 / 3;
      outcome([&] { weft::inplace_merge(weft::par, v.begin(), mid, v.end(), std::less<>{}); });
      REQUIRE(counts(v.begin(), v.end()) == counts(in.begin(), in.end()));
    });
  }
}

TEST_CASE("comparator safety: nth_element and partial_sort name an irreflexive comparator", "[algo][comparator-safety]") {
  // Always true splits every range at its end: the budget of bad splits runs out, and the
  // pivot compared with itself says why (a heapsort would cost log2(n) times more).
  for (const kind k : {kind::le, kind::always_true}) {
    CAPTURE(name(k));
    const vec in = input(3001, 5);
    vec v = in;
    std::atomic<std::uint64_t> calls{0};
    const bad_comp comp{k, &calls, 1, 0};
    if (k == kind::always_true)
      REQUIRE_THROWS_AS(weft::nth_element(weft::seq, v.begin(), v.begin() + 1500, v.end(), comp), weft::invalid_comparator);
    else
      outcome([&] { weft::partial_sort(weft::par, v.begin(), v.begin() + 1500, v.end(), comp); });
    REQUIRE(counts(v.begin(), v.end()) == counts(in.begin(), in.end()));
  }
}

TEST_CASE("comparator safety: every algorithm with every bad comparator in pools of 1 2 and 7", "[algo][comparator-safety]") {
  // Lengths within one sort tile (8192), and at 7 threads (the finest splits) one of several
  // tiles and merge chunks: the bar of 100,003 in Release, `big` (20,011) under the
  // sanitizers, which look for memory errors and need no more to show them.
  for (const std::size_t threads : {1, 2, 7}) {
    weft::thread_pool pool({.num_threads = threads});
    std::vector<std::size_t> ns{0, 1, 2, 7, 300, 3001};
    if (threads == 7) ns.push_back(sanitized ? big : 100003);
    for (const std::size_t n : ns) {
      const vec in = input(n, n + threads);
      for (const kind k : kinds) {
        CAPTURE(threads, n, name(k));
        std::atomic<std::uint64_t> calls{0};
        const bad_comp comp{k, &calls, n * 31 + threads, n * 2 + 1};
        pool.install([&] { run_all(in, comp, weft::par); });
      }
    }
    // The pool still works: a valid sort completes.
    pool.install([&] {
      vec v = input(ns.back(), 9);
      weft::sort(weft::par, v.begin(), v.end());
      REQUIRE(std::is_sorted(v.begin(), v.end()));
    });
  }
}

TEST_CASE("comparator safety: every algorithm with every bad comparator on the calling thread", "[algo][comparator-safety]") {
  // weft::seq, and elements whose moves may throw under weft::par: the kernels of
  // seq_sort.hpp and run_merge_sort.hpp on the calling thread. Lengths around the
  // introsort's insertion cutoff (24), the run merge sort's whole-range insertion (20) and
  // its minimum runs (8-16), and a few of them.
  weft::thread_pool pool({.num_threads = 2});
  for (const std::size_t n : {0, 1, 2, 3, 7, 16, 17, 20, 21, 24, 25, 26, 33, 100, 300, 3001}) {
    const vec in = input(n, n + 11);
    for (const kind k : kinds) {
      CAPTURE(n, name(k));
      std::atomic<std::uint64_t> calls{0};
      const bad_comp comp{k, &calls, n * 17 + 5, n * 2 + 1};
      run_all(in, comp, weft::seq);
      run_rearranging<loose_string>(in, comp, weft::seq);
      pool.install([&] { run_rearranging<loose_string>(in, comp, weft::par); });
    }
  }
}
