// SPDX-License-Identifier: MIT
// interleave(other), interleave_shortest(other) and intersperse(sep): items of two sides taken
// in turn, or a separator between items (Rayon's names). Indexed only: each position maps to
// one side's position by arithmetic, so the leaf reads both sides directly.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "weft/iter/chain.hpp"
#include "weft/iter/fwd.hpp"
#include "weft/iter/node.hpp"

namespace weft::detail {

// Positions [lo, hi) of the interleaving of whole sides a and b: position k < 2m (m the
// shorter length) is a[k / 2] or b[k / 2] by parity; past that, the longer side's rest.
// m and which side is longer are fixed by the whole sides, so they are kept, not recomputed
// per item.
template <class A, class B, class R>
struct interleave_producer {
  A a;
  B b;
  std::size_t lo;
  std::size_t hi;
  std::size_t m = std::min(a.size(), b.size());
  bool a_longer = a.size() > m;

  std::size_t size() const { return hi - lo; }
  R operator[](std::size_t i) const {
    const std::size_t k = lo + i;
    if (k < 2 * m) return k % 2 == 0 ? static_cast<R>(a[k / 2]) : static_cast<R>(b[k / 2]);
    const std::size_t rest = m + (k - 2 * m);
    return a_longer ? static_cast<R>(a[rest]) : static_cast<R>(b[rest]);
  }
  interleave_producer slice(std::size_t l, std::size_t h) const {
    return {a, b, lo + l, lo + h, m, a_longer};
  }
};

template <indexed_node A, indexed_node B, bool Shortest>
class interleave_node {
 public:
  static constexpr bool indexed = true;
  using item_type = chain_item_t<A, B>;
  static constexpr bool producer_borrows_only =
      detail::producer_borrows_only<A> && detail::producer_borrows_only<B>;
  static constexpr bool makes_owned_views =
      detail::makes_owned_views<A> || detail::makes_owned_views<B>;

  interleave_node(A a, B b) : a_(std::move(a)), b_(std::move(b)) {}
  std::size_t size() { return length(a_.size(), b_.size()); }
  auto producer() {
    auto pa = a_.producer();
    auto pb = b_.producer();
    return interleave_producer<decltype(pa), decltype(pb), item_type>{
        pa, pb, 0, length(pa.size(), pb.size())};
  }

 private:
  // interleave: every item of both; interleave_shortest: until one side runs out, a's turn
  // first ([1, 2, 3] with [5]: 1, 5, 2).
  static std::size_t length(std::size_t na, std::size_t nb) {
    if constexpr (Shortest) {
      return na > nb ? 2 * nb + 1 : 2 * na;
    } else {
      if (nb > std::numeric_limits<std::size_t>::max() - na) [[unlikely]]
        throw std::length_error("weft: interleave of two pipelines with more than SIZE_MAX items");
      return na + nb;
    }
  }

  A a_;
  B b_;
};

// Positions [lo, hi) of base's items with *sep between each two: even positions are items,
// odd ones the separator.
template <class P, class S, class R>
struct intersperse_producer {
  P base;
  const S* sep;
  std::size_t lo;
  std::size_t hi;

  std::size_t size() const { return hi - lo; }
  R operator[](std::size_t i) const {
    const std::size_t k = lo + i;
    return k % 2 == 0 ? static_cast<R>(base[k / 2]) : static_cast<R>(*sep);
  }
  intersperse_producer slice(std::size_t l, std::size_t h) const {
    return {base, sep, lo + l, lo + h};
  }
};

template <indexed_node Base, class S>
class intersperse_node {
 public:
  static constexpr bool indexed = true;
  using item_type =
      non_const_value_t<std::common_reference_t<typename Base::item_type, const S&>>;
  // Its producers point at the separator it owns.
  static constexpr bool producer_borrows_only = false;
  static constexpr bool makes_owned_views = detail::makes_owned_views<Base>;

  intersperse_node(Base base, S sep) : base_(std::move(base)), sep_(std::move(sep)) {}
  std::size_t size() { return length(base_.size()); }
  auto producer() {
    auto p = base_.producer();
    return intersperse_producer<decltype(p), S, item_type>{p, &sep_, 0, length(p.size())};
  }

 private:
  // n items and n - 1 separators (n < 2^63: a pipeline of more positions cannot be indexed).
  static std::size_t length(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / 2) [[unlikely]]
      throw std::length_error("weft: intersperse of more than SIZE_MAX / 2 items");
    return n == 0 ? 0 : 2 * n - 1;
  }

  Base base_;
  S sep_;
};

// The adaptors of this file, a base of par_iter (par_iter_access reaches its node).
template <class Self>
class interleave_adaptors {
 public:
  /// [indexed] Items of this pipeline and of `other` (a range or an indexed pipeline) in
  /// turn, this side first; when one runs out, the rest of the other (Rayon's interleave).
  /// Items of the two sides' common type, as chain's.
  template <class Other>
  auto interleave(Other&& other) && {
    return std::move(*this).template interleave_with<false>(std::forward<Other>(other));
  }
  template <class Other>
  auto interleave(Other&& other) const& { return Self(self()).interleave(std::forward<Other>(other)); }
  /// [indexed] interleave(other) until either side runs out ([1, 2, 3] with [5]: 1, 5, 2).
  template <class Other>
  auto interleave_shortest(Other&& other) && {
    return std::move(*this).template interleave_with<true>(std::forward<Other>(other));
  }
  template <class Other>
  auto interleave_shortest(Other&& other) const& {
    return Self(self()).interleave_shortest(std::forward<Other>(other));
  }
  /// [indexed] A copy of `sep` between each two items (none before the first or after the
  /// last): 2n - 1 items for n. Items of the common type of the items and `sep`.
  template <class S>
  auto intersperse(S sep) && {
    require_indexed();
    using item = typename Self::item_type;
    static_assert(requires { typename std::common_reference_t<item, const S&>; },
                  "weft: intersperse(sep): the items and sep need a common type "
                  "(std::common_reference_t of the item type and const S&)");
    using node = typename Self::node_type;
    return par_iter_access::wrap(
        self(), intersperse_node<node, S>(std::move(par_iter_access::node(self())), std::move(sep)));
  }
  template <class S>
  auto intersperse(S sep) const& { return Self(self()).intersperse(std::move(sep)); }

 private:
  Self& self() { return static_cast<Self&>(*this); }
  const Self& self() const { return static_cast<const Self&>(*this); }

  static constexpr void require_indexed() {
    static_assert(Self::indexed,
                  "weft: interleave/interleave_shortest/intersperse need an indexed pipeline "
                  "(every item's position known): they cannot follow filter, filter_map, "
                  "flat_map, fold, map_init, try_fold or while_some; apply them before");
  }

  template <bool Shortest, class Other>
  auto interleave_with(Other&& other) && {
    require_indexed();
    auto rhs = weft::iter(std::forward<Other>(other));
    using R = decltype(rhs);
    static_assert(R::indexed,
                  "weft: interleave(other): other must be indexed "
                  "(not after filter/filter_map/flat_map/fold/map_init/try_fold/while_some)");
    using A = typename Self::node_type;
    using B = typename R::node_type;
    static_assert(requires { typename chain_item_t<A, B>; },
                  "weft: interleave(other): the items of both sides need a common type "
                  "(std::common_reference_t of the two item types)");
    return par_iter_access::wrap(
        self(), interleave_node<A, B, Shortest>(std::move(par_iter_access::node(self())),
                                                std::move(par_iter_access::node(rhs))));
  }
};

}  // namespace weft::detail
