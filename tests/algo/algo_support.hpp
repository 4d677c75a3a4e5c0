// SPDX-License-Identifier: MIT
// Shared by the algorithm tests: the lengths every algorithm is checked at, random inputs of
// the element types (int, std::string, a move-only type), adversarial orders for sorts, and
// a throwing callable for the exception tests.
#pragma once

#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <execution>

#include "test_support.hpp"

namespace weft_algo {

// Under ThreadSanitizer and AddressSanitizer (10-50x slower) the longest length shrinks: those
// builds look for races and memory errors, which do not need 100,003 elements to show.
inline constexpr bool sanitized = weft_test::under_sanitizer;
inline constexpr std::size_t big = sanitized ? 20011 : 100003;
inline constexpr std::size_t lengths[] = {0, 1, 2, 1000, big};

// Runs f(policy) for elements of type T with the policies an algorithm must accept. Every
// parallel policy type takes the same code path (detail::is_parallel_policy_v;
// for_each_test checks each type is accepted), but each call of f with another policy type
// compiles f's body again: in find_test and compact_test, 40 % of their compile time. The
// policy picks between two paths (weft::seq: the std:: algorithm; a parallel policy: weft's),
// and which one it picks does not depend on the element type. So weft::par runs for every
// element type; weft::seq and one standard policy object run for int, in the Release build.
// The sanitizer builds look for races and memory errors in weft's code: weft::seq only
// forwards to the std:: algorithm, so they run weft::par alone.
template <class T, class F>
void for_policies(F&& f) {
  f(weft::par);
  if constexpr (!sanitized && std::is_same_v<T, int>) {
    f(weft::seq);
    f(std::execution::par_unseq);
  }
}

// Move-only element: a heap-held int, so a lost or duplicated element shows up (ASan: a
// double free or a leak; the tests: a null value).
struct move_only {
  std::unique_ptr<int> p;
  move_only() = default;
  explicit move_only(int v) : p(std::make_unique<int>(v)) {}
  int value() const { return p ? *p : -1'000'000'000; }
  friend bool operator==(const move_only& a, const move_only& b) { return a.value() == b.value(); }
  friend bool operator<(const move_only& a, const move_only& b) { return a.value() < b.value(); }
};

inline int key_of(int x) { return x; }
inline int key_of(const std::string& s) { return std::atoi(s.c_str()); }  // make<std::string>(k) -> k
inline int key_of(const move_only& m) { return m.value(); }

// The element whose key is k (a string longer than its digits, so that copies allocate).
template <class T>
T make(int k) {
  if constexpr (std::is_same_v<T, std::string>)
    return std::to_string(k) + std::string(static_cast<std::size_t>(k % 5) + 16, 'z');
  else
    return T(k);
}

// n random elements whose keys lie in [0, spread).
template <class T>
std::vector<T> random_input(std::size_t n, std::uint64_t salt, int spread = 1'000'000) {
  auto rng = weft_test::seeded_rng(salt * 7919 + n);
  std::vector<T> v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    v.push_back(make<T>(static_cast<int>(rng() % static_cast<std::uint64_t>(spread))));
  }
  return v;
}

// A deep copy (move_only has no copy constructor).
template <class T>
std::vector<T> clone(const std::vector<T>& v) {
  if constexpr (std::is_copy_constructible_v<T>) {
    return v;
  } else {
    std::vector<T> out;
    out.reserve(v.size());
    for (const auto& x : v) out.push_back(T(x.value()));
    return out;
  }
}

// The orders a sort must not go quadratic on.
enum class order { random, sorted, reversed, all_equal, few_unique, organ_pipe };
inline constexpr order orders[] = {order::random,    order::sorted,     order::reversed,
                                   order::all_equal, order::few_unique, order::organ_pipe};
inline const char* name(order o) {
  switch (o) {
    case order::random: return "random";
    case order::sorted: return "sorted";
    case order::reversed: return "reversed";
    case order::all_equal: return "all_equal";
    case order::few_unique: return "few_unique";
    case order::organ_pipe: return "organ_pipe";
  }
  return "?";
}

template <class T>
std::vector<T> ordered_input(std::size_t n, order o, std::uint64_t salt) {
  switch (o) {
    case order::random: return random_input<T>(n, salt);
    case order::all_equal: return random_input<T>(n, salt, 1);
    case order::few_unique: return random_input<T>(n, salt, 4);
    default: break;
  }
  auto v = random_input<T>(n, salt);
  std::sort(v.begin(), v.end());
  if (o == order::reversed) std::reverse(v.begin(), v.end());
  if (o == order::organ_pipe) std::reverse(v.begin() + static_cast<std::ptrdiff_t>(n / 2), v.end());
  return v;
}

// Throws on the `at`-th call (counted across threads): an exception from user code at a
// point the test chooses, whichever thread gets there.
struct thrower {
  std::atomic<std::size_t>* calls;
  std::size_t at;
  void tick() const {
    if (calls->fetch_add(1, std::memory_order_relaxed) == at) throw weft_test::test_error{0};
  }
};

}  // namespace weft_algo
