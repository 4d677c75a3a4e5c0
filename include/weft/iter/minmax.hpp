// SPDX-License-Identifier: MIT
// min, max, min_by(cmp), max_by(cmp), min_by_key(f), max_by_key(f).
// Ties: the min family returns the first of equal items, the max family the last
// (as std::minmax_element and Rust's Iterator do).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <utility>

#include "weft/iter/node.hpp"
#include "weft/plumbing/value.hpp"

namespace weft::detail {

// `Better(cmp, candidate, current)` says whether candidate replaces current; candidate
// is always the later item.
template <class V, class Cmp, bool KeepLast>
struct best_consumer : splittable_by_copy<best_consumer<V, Cmp, KeepLast>> {
  using result_type = std::optional<V>;
  const Cmp* cmp;

  static bool later_wins(const Cmp& cmp, const V& later, const V& earlier) {
    if constexpr (KeepLast)
      return !std::invoke(cmp, later, earlier);  // later >= earlier
    else
      return std::invoke(cmp, later, earlier);  // later < earlier
  }

  struct folder {
    std::optional<V> best;
    const Cmp* cmp;
    template <class X>
    void consume(std::size_t, X&& x) {
      if (!best) {
        best.emplace(std::forward<X>(x));
        return;
      }
      V v(std::forward<X>(x));
      if (later_wins(*cmp, v, *best)) *best = std::move(v);
    }
    std::optional<V> complete() && { return std::move(best); }
  };
  folder make_folder() const { return {std::nullopt, cmp}; }
  bool full() const { return false; }
  std::optional<V> reduce(std::optional<V> l, std::optional<V> r) const {
    if (!l) return r;
    if (!r) return l;
    return later_wins(*cmp, *r, *l) ? std::move(r) : std::move(l);
  }
};

// Compares (key, value) pairs by key: min_by_key computes each key once.
struct key_less {
  template <class P>
  bool operator()(const P& a, const P& b) const {
    return a.first < b.first;
  }
};

}  // namespace weft::detail
