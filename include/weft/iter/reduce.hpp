// SPDX-License-Identifier: MIT
// reduce(identity, op), reduce(identity, fold, combine), sum(), product() and count().
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/iter/node.hpp"
#include "weft/plumbing/consumer.hpp"

namespace weft::detail {

template <class Identity, bool = std::is_invocable_v<const Identity&>>
struct identity_type {
  using type = std::remove_cvref_t<Identity>;
};
template <class Identity>
struct identity_type<Identity, true> {
  using type = std::remove_cvref_t<std::invoke_result_t<const Identity&>>;
};

template <class T, class Identity>
T make_identity(const Identity& id) {
  if constexpr (std::is_invocable_v<const Identity&>)
    return std::invoke(id);
  else
    return id;
}

// reduce(identity, op) folds and combines with the same op; reduce(identity, fold, combine)
// folds items into a leaf's accumulator with `fold` and joins accumulators with `combine`.
template <class T, class Identity, class Fold, class Combine = Fold>
struct reduce_consumer : splittable_by_copy<reduce_consumer<T, Identity, Fold, Combine>> {
  using result_type = T;
  const Identity* id;
  const Fold* fold;
  const Combine* combine;

  struct folder {
    T acc;
    const Fold* fold;
    template <class X>
    void consume(std::size_t, X&& x) {
      acc = std::invoke(*fold, std::move(acc), std::forward<X>(x));
    }
    T complete() && { return std::move(acc); }
  };
  folder make_folder() const { return {make_identity<T>(*id), fold}; }
  bool full() const { return false; }
  T reduce(T l, T r) const { return std::invoke(*combine, std::move(l), std::move(r)); }
};

// reduce_with(op): reduce without an identity, nothing for no items (Rayon's reduce_with).
// The accumulator is assigned in place, and a block runs through a local: an optional
// written whole per item stalls on store forwarding (iter/try_fold.hpp).
template <class V, class Op>
struct reduce_with_consumer : splittable_by_copy<reduce_with_consumer<V, Op>> {
  using result_type = std::optional<V>;
  const Op* op;

  struct folder {
    std::optional<V> acc;
    const Op* op;
    template <class X>
    void consume(std::size_t, X&& x) {
      if (!acc)
        acc.emplace(std::forward<X>(x));
      else
        *acc = std::invoke(*op, std::move(*acc), std::forward<X>(x));
    }
    template <plumbing::producer P>
      requires std::is_move_assignable_v<V>
    void consume_block(const P& p, std::size_t lo, std::size_t hi) {
      if (lo == hi) return;
      if (!acc) acc.emplace(p[lo++]);
      V a = std::move(*acc);
      for (std::size_t i = lo; i < hi; ++i) a = std::invoke(*op, std::move(a), p[i]);
      *acc = std::move(a);
    }
    std::optional<V> complete() && { return std::move(acc); }
  };
  folder make_folder() const { return {std::nullopt, op}; }
  bool full() const { return false; }
  std::optional<V> reduce(std::optional<V> l, std::optional<V> r) const {
    if (!l) return r;
    if (!r) return l;
    return std::invoke(*op, std::move(*l), std::move(*r));
  }
};

// sum and product. Floating-point folds use several independent lanes so that the leaf
// loop vectorises like a hand-unrolled loop: a parallel reduction reassociates anyway.
struct plus_op {
  template <class T>
  static T apply(T a, T b) {
    a += std::move(b);
    return a;
  }
  template <class T>
  static constexpr T identity() { return T{}; }
};
struct times_op {
  template <class T>
  static T apply(T a, T b) {
    a *= std::move(b);
    return a;
  }
  template <class T>
  static constexpr T identity() { return T(1); }
};

inline constexpr std::size_t arithmetic_lanes = 8;

template <class T, class Op>
struct arithmetic_consumer : splittable_by_copy<arithmetic_consumer<T, Op>> {
  using result_type = T;

  struct folder {
    T lanes[arithmetic_lanes];

    folder() {
      for (auto& l : lanes) l = Op::template identity<T>();
    }
    template <class X>
    void consume(std::size_t, X&& x) {
      lanes[0] = Op::apply(std::move(lanes[0]), static_cast<T>(std::forward<X>(x)));
    }
    // Integer sums after a filter: add the item or zero, chosen by a mask, not a branch.
    template <class X>
      requires std::integral<T> && (!std::same_as<T, bool>) && std::same_as<Op, plus_op>
    void consume_if(bool keep, std::size_t, X&& x) {
      const T item = static_cast<T>(std::forward<X>(x));
      const T mask = static_cast<T>(-static_cast<T>(keep));
      lanes[0] = static_cast<T>(lanes[0] + static_cast<T>(item & mask));
    }
    template <plumbing::producer P>
      requires std::floating_point<T>
    void consume_block(const P& p, std::size_t lo, std::size_t hi) {
      consume_lanes(p, lo, hi, std::make_index_sequence<arithmetic_lanes>{});
    }
    // Straight-line code per group of lanes (not an inner loop): GCC's SLP vectoriser turns
    // it into packed operations, as for a hand-unrolled loop.
    template <plumbing::producer P, std::size_t... K>
    void consume_lanes(const P& p, std::size_t lo, std::size_t hi, std::index_sequence<K...>) {
      T l[arithmetic_lanes] = {lanes[K]...};
      // A counted loop: with `i + 8 <= hi` as the condition GCC vectorises across groups
      // instead, with a shuffle per load.
      const std::size_t groups = (hi - lo) / arithmetic_lanes;
      for (std::size_t g = 0; g < groups; ++g) {
        const std::size_t i = lo + g * arithmetic_lanes;
        ((l[K] = Op::apply(l[K], static_cast<T>(p[i + K]))), ...);
      }
      for (std::size_t i = lo + groups * arithmetic_lanes, k = 0; i < hi; ++i, ++k)
        l[k] = Op::apply(l[k], static_cast<T>(p[i]));
      ((lanes[K] = l[K]), ...);
    }
    T complete() && {
      T r = std::move(lanes[0]);
      for (std::size_t k = 1; k < arithmetic_lanes; ++k)
        r = Op::apply(std::move(r), std::move(lanes[k]));
      return r;
    }
  };
  folder make_folder() const { return {}; }
  bool full() const { return false; }
  T reduce(T l, T r) const { return Op::apply(std::move(l), std::move(r)); }
};

struct count_consumer : splittable_by_copy<count_consumer> {
  using result_type = std::size_t;
  struct folder {
    std::size_t n = 0;
    template <class X>
    void consume(std::size_t, X&&) {
      ++n;
    }
    template <class X>
    void consume_if(bool keep, std::size_t, X&&) {
      n += keep;
    }
    std::size_t complete() && { return n; }
  };
  folder make_folder() const { return {}; }
  bool full() const { return false; }
  std::size_t reduce(std::size_t l, std::size_t r) const { return l + r; }
};

}  // namespace weft::detail
