// SPDX-License-Identifier: MIT
// reduce(identity, op), sum(), product() and count().
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
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

template <class T, class Identity, class Op>
struct reduce_consumer : splittable_by_copy<reduce_consumer<T, Identity, Op>> {
  using result_type = T;
  const Identity* id;
  const Op* op;

  struct folder {
    T acc;
    const Op* op;
    template <class X>
    void consume(std::size_t, X&& x) {
      acc = std::invoke(*op, std::move(acc), std::forward<X>(x));
    }
    T complete() && { return std::move(acc); }
  };
  folder make_folder() const { return {make_identity<T>(*id), op}; }
  bool full() const { return false; }
  T reduce(T l, T r) const { return std::invoke(*op, std::move(l), std::move(r)); }
};

// sum and product. Floating-point folds use several independent lanes so that the leaf
// loop vectorises like a hand-unrolled loop: a parallel reduction reassociates anyway.
struct plus_op {
  template <class T>
  static T apply(T a, T b) { return a + b; }
  template <class T>
  static constexpr T identity() { return T(0); }
};
struct times_op {
  template <class T>
  static T apply(T a, T b) { return a * b; }
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
      lanes[0] = Op::apply(lanes[0], static_cast<T>(std::forward<X>(x)));
    }
    template <plumbing::producer P>
      requires std::floating_point<T>
    void consume_block(const P& p, std::size_t lo, std::size_t hi) {
      T l[arithmetic_lanes];
      for (std::size_t k = 0; k < arithmetic_lanes; ++k) l[k] = lanes[k];
      std::size_t i = lo;
      for (; i + arithmetic_lanes <= hi; i += arithmetic_lanes)
        for (std::size_t k = 0; k < arithmetic_lanes; ++k)
          l[k] = Op::apply(l[k], static_cast<T>(p[i + k]));
      for (std::size_t k = 0; i < hi; ++i, ++k) l[k] = Op::apply(l[k], static_cast<T>(p[i]));
      for (std::size_t k = 0; k < arithmetic_lanes; ++k) lanes[k] = l[k];
    }
    T complete() && {
      T r = lanes[0];
      for (std::size_t k = 1; k < arithmetic_lanes; ++k) r = Op::apply(r, lanes[k]);
      return r;
    }
  };
  folder make_folder() const { return {}; }
  bool full() const { return false; }
  T reduce(T l, T r) const { return Op::apply(l, r); }
};

struct count_consumer : splittable_by_copy<count_consumer> {
  using result_type = std::size_t;
  struct folder {
    std::size_t n = 0;
    template <class X>
    void consume(std::size_t, X&&) {
      ++n;
    }
    std::size_t complete() && { return n; }
  };
  folder make_folder() const { return {}; }
  bool full() const { return false; }
  std::size_t reduce(std::size_t l, std::size_t r) const { return l + r; }
};

}  // namespace weft::detail
