// SPDX-License-Identifier: MIT
// Any comparator is safe: every algorithm that takes a comparator, given one that is no
// strict weak order (`<=`, random answers, always true, always false) or one that throws,
// returns or throws, stays inside its ranges (ASan), and leaves a permutation of the input
// where it rearranges it. weft::invalid_comparator is an allowed outcome; the order is not
// checked. Pools of 1, 2 and 7 threads: the splits, and so the merge-path searches that an
// invalid comparator misleads, differ with the thread count.
#include <functional>
#include <stdexcept>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

enum class kind { le, random, always_true, always_false, throws };
std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
  return x ^ (x >> 31);
}

// One comparator type for every kind, so that each algorithm is compiled once. Random answers
// come from the seed and the call's number (counted across threads): a fixed sequence at one
// thread. `throws` is `<` until its throw_at-th call.
struct bad_comp {
  kind k;
  std::atomic<std::uint64_t>* calls;
  std::uint64_t seed;
  std::uint64_t throw_at;
  bool operator()(const std::string& a, const std::string& b) const {
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

multiset counts(vec::const_iterator first, vec::const_iterator last) {
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

// Input with duplicates, so that `<=` differs from `<`.
vec input(std::size_t n, std::uint64_t salt) {
  return random_input<std::string>(n, salt, static_cast<int>(n / 2 + 1));
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
