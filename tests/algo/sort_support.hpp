// SPDX-License-Identifier: MIT
// Shared by sort_test.cpp and stable_sort_test.cpp (two TUs so that the two heaviest
// instantiation sets of the test tree compile in parallel): inputs of every element type in
// every adversarial order, and the check of a sort against std::sort / std::stable_sort.
#pragma once
#include <cmath>
#include <deque>
#include <execution>
#include <functional>
#include <limits>
#include <list>

#include "algo_support.hpp"

using namespace weft_algo;

namespace {

// key_of for the element types only these tests use.
inline int key_of(std::uint64_t x) { return static_cast<int>(x >> 40); }
inline int key_of(double x) { return static_cast<int>(x); }
using weft_algo::key_of;

// Values to compare a sorted result by (move_only has no copy).
template <class T>
auto values(const std::vector<T>& v) {
  if constexpr (std::is_same_v<T, move_only>) {
    std::vector<int> out;
    for (const auto& m : v) out.push_back(m.value());
    return out;
  } else {
    return v;
  }
}

template <class T>
std::vector<T> input_of(std::size_t n, order o, std::uint64_t salt) {
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    auto v = ordered_input<int>(n, o, salt);
    std::vector<std::uint64_t> out;
    for (const int x : v) out.push_back(static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ull);
    if (o == order::sorted || o == order::reversed || o == order::organ_pipe) {
      std::sort(out.begin(), out.end());
      if (o == order::reversed) std::reverse(out.begin(), out.end());
      if (o == order::organ_pipe) std::reverse(out.begin() + static_cast<std::ptrdiff_t>(n / 2), out.end());
    }
    return out;
  } else if constexpr (std::is_same_v<T, double>) {
    auto v = ordered_input<int>(n, o, salt);
    std::vector<double> out;
    for (const int x : v) out.push_back((x - 500'000) / 7.0);
    return out;
  } else {
    return ordered_input<T>(n, o, salt);
  }
}

// Sorts a copy with `run` and with std::sort / std::stable_sort and compares.
// Every length and order with the default comparator; with another one (`full` false), the
// longest length only in random and reversed order (the test's time budget).
template <class T, class Run, class Comp = std::less<>>
void check_sort(Run run, bool stable, Comp comp = {}, bool full = true) {
  for (const std::size_t n : lengths)
    for (const order o : orders) {
      if (!full && n > 1000 && o != order::random && o != order::reversed) continue;
      CAPTURE(n, name(o));
      auto v = input_of<T>(n, o, 3);
      auto want = clone(v);
      if (stable)
        std::stable_sort(want.begin(), want.end(), comp);
      else
        std::sort(want.begin(), want.end(), comp);
      run(v, comp);
      if (stable) {
        REQUIRE(values(v) == values(want));
      } else {  // equivalent elements may differ (a key comparator): order and multiset
        REQUIRE(std::is_sorted(v.begin(), v.end(), comp));
        auto got = values(v), exp = values(want);
        std::sort(got.begin(), got.end());
        std::sort(exp.begin(), exp.end());
        REQUIRE(got == exp);
      }
    }
}

// Stable is a template parameter so that each instantiation compiles one of sort and
// stable_sort: the sort family is the heaviest code of the test tree.
template <class T, bool Stable>
void check_all_policies() {
  const auto par = [](auto& v, auto comp) {
    if constexpr (Stable)
      weft::stable_sort(weft::par, v.begin(), v.end(), comp);
    else
      weft::sort(weft::par, v.begin(), v.end(), comp);
  };
  // Each comparator is a full instantiation of the sort family (the heaviest code of the test
  // tree), so each runs where it reaches a path the others do not. The default order: the
  // radix path for arithmetic types, the comparison path otherwise.
  check_sort<T>(par, Stable);
  // uint64 and double are here for the radix key transforms (ascending, and below descending):
  // a lambda on them runs the comparison path that int already runs.
  constexpr bool radix_only = std::is_same_v<T, std::uint64_t> || std::is_same_v<T, double>;
  if constexpr (!radix_only)
    check_sort<T>(par, Stable, [](const T& a, const T& b) { return b < a; }, false);
  // Release only (the sanitizer builds run both paths with the comparators above): the radix
  // path's descending order, and a comparison with many ties (std::greater<> on a string
  // would only repeat the lambda's descending comparison).
  if constexpr (!sanitized) {
    if constexpr (std::is_arithmetic_v<T>) check_sort<T>(par, Stable, std::greater<>{}, false);
    if constexpr (!radix_only && !std::is_same_v<T, move_only>)
      check_sort<T>(par, Stable, [](const T& a, const T& b) { return key_of(a) % 1000 < key_of(b) % 1000; }, false);
  }
  auto v = input_of<T>(big, order::random, 9);
  auto want = clone(v);
  std::stable_sort(want.begin(), want.end());
  auto w = clone(v);
  if constexpr (Stable) {
    weft::stable_sort(weft::seq, w.begin(), w.end());
    if constexpr (!sanitized) weft::stable_sort(std::execution::par, v.begin(), v.end());
  } else {
    weft::sort(weft::seq, w.begin(), w.end());
    if constexpr (!sanitized) weft::sort(std::execution::par_unseq, v.begin(), v.end());
  }
  if (!sanitized) REQUIRE(values(v) == values(want));  // a standard policy object, Release only
  REQUIRE(values(w) == values(want));
}

// Every element type: int (radix path), std::string (comparison path, allocating copies),
// move_only (ASan sees a lost or duplicated element); uint64 and double add the radix key
// transforms and run in the Release build only (each type is a full sort instantiation).
// Release instantiates 13 sorts per sort function: int 4, string 3, move_only 2, uint64 and
// double 2 each.
template <bool Stable>
void check_all_types() {
  check_all_policies<int, Stable>();
  check_all_policies<std::string, Stable>();
  check_all_policies<move_only, Stable>();
  if constexpr (!sanitized) {
    check_all_policies<std::uint64_t, Stable>();
    check_all_policies<double, Stable>();
  }
}

}  // namespace
