// SPDX-License-Identifier: MIT
// chain(other): the items of one pipeline, then those of another. Indexed when both sides
// are; otherwise the consumer is split at the seam and each side drives its half.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "weft/iter/node.hpp"
#include "weft/join.hpp"

namespace weft::detail {

// One side of a chain as the leaf sees it: the side's items at the chain's positions
// [off, off + base.size()), each given as the chain's item type R (so that a callable sees
// the same type from both sides).
template <class P, class R>
struct chain_part {
  P base;
  std::size_t off;

  std::size_t size() const { return off + base.size(); }
  R operator[](std::size_t i) const { return static_cast<R>(base[i - off]); }
  // Only positions at or past `off` exist; a slice that starts before them keeps the gap.
  chain_part slice(std::size_t lo, std::size_t hi) const {
    const std::size_t from = std::max(lo, off);
    return {base.slice(from - off, std::max(hi, from) - off), from - lo};
  }
};

// Positions [0, a.size()) are a's items, the rest b's. operator[] tests which side a
// position is on; the leaf does not: plumbing::fold_block folds each side's part of a block
// with a loop of its own (the `concatenates` refinement), as a loop over one range would.
template <class A, class B, class R>
struct chain_producer {
  A a;
  B b;

  std::size_t size() const { return a.size() + b.size(); }
  R operator[](std::size_t i) const {
    const std::size_t na = a.size();
    if (i < na) return static_cast<R>(a[i]);
    return static_cast<R>(b[i - na]);
  }
  chain_producer slice(std::size_t lo, std::size_t hi) const {
    const std::size_t na = a.size();
    return {a.slice(std::min(lo, na), std::min(hi, na)),
            b.slice(std::max(lo, na) - na, std::max(hi, na) - na)};
  }
  std::size_t front_size() const { return a.size(); }
  chain_part<A, R> front_part() const { return {a, 0}; }
  chain_part<B, R> back_part() const { return {b, a.size()}; }
};

// The sides' common reference type; a common type that is not a reference loses its const
// (`const std::string&` and `std::string` give `std::string`, which can still be moved).
template <class R>
using non_const_value_t = std::conditional_t<std::is_reference_v<R>, R, std::remove_cv_t<R>>;
template <class A, class B>
using chain_item_t =
    non_const_value_t<std::common_reference_t<typename A::item_type, typename B::item_type>>;

// Hands a side's items to the chain's consumer as the chain's item type, so that a callable
// after an unindexed chain sees one type from both sides.
template <class R>
struct chain_item_as {};

template <class Inner, class As>
struct chain_convert_folder;
template <class Inner, class R>
struct chain_convert_folder<Inner, chain_item_as<R>> : wrapping_folder<Inner, chain_item_as<R>> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    if constexpr (!std::is_reference_v<R> && std::is_same_v<std::remove_cvref_t<T>, R>)
      this->inner.consume(i, std::forward<T>(x));  // already the item type: no copy
    else
      this->inner.consume(i, static_cast<R>(std::forward<T>(x)));
  }
};

template <class A, class B>
class chain_node {
 public:
  static constexpr bool indexed = A::indexed && B::indexed;
  using item_type = chain_item_t<A, B>;
  static constexpr bool producer_borrows_only =
      detail::producer_borrows_only<A> && detail::producer_borrows_only<B>;
  static constexpr bool makes_owned_views = detail::makes_owned_views<A> || detail::makes_owned_views<B>;

  chain_node(A a, B b) : a_(std::move(a)), b_(std::move(b)) {}
  std::size_t size()
    requires indexed
  {
    const std::size_t na = a_.size();
    const std::size_t nb = b_.size();
    length_fits(na, nb);
    return na + nb;
  }
  auto producer()
    requires indexed
  {
    auto pa = a_.producer();
    auto pb = b_.producer();
    length_fits(pa.size(), pb.size());
    return chain_producer<decltype(pa), decltype(pb), item_type>{pa, pb};
  }

  // Unindexed: positions [0, positions_of(a)) are a's (its base's items, before any
  // filter), the rest b's. The consumer is split there, as the bridge splits it, and the
  // two sides run as the two halves of a join: an ordered consumer keeps a's results
  // first, and a match on one side stops the other (its range is then full()).
  std::size_t positions()
    requires(!indexed)
  {
    const std::size_t na = positions_of(a_);
    const std::size_t nb = positions_of(b_);
    length_fits(na, nb);
    return na + nb;
  }
  template <plumbing::consumer C>
    requires(!indexed)
  auto drive(C c, const plumbing::split_options& opt) {
    auto halves = c.split_at(positions_of(a_));
    auto results = weft::join([&] { return drive_side<false>(a_, std::move(halves.first), opt); },
                              [&] { return drive_side<false>(b_, std::move(halves.second), opt); });
    return c.reduce(std::move(results.first), std::move(results.second));
  }
  // Reversed (drive_reversed), b's mirrored positions come first.
  static constexpr bool reversible = !indexed && drives_reversed<A> && drives_reversed<B>;
  template <plumbing::consumer C>
    requires reversible
  auto drive_reversed(C c, const plumbing::split_options& opt) {
    auto halves = c.split_at(positions_of(b_));
    auto results = weft::join([&] { return drive_side<true>(b_, std::move(halves.first), opt); },
                              [&] { return drive_side<true>(a_, std::move(halves.second), opt); });
    return c.reduce(std::move(results.first), std::move(results.second));
  }

 private:
  // The chain's length (or positions) na + nb must fit std::size_t: a pipeline's positions
  // are std::size_t (two ranges of 2^63 items each are one too many).
  static void length_fits(std::size_t na, std::size_t nb) {
    if (nb > std::numeric_limits<std::size_t>::max() - na) [[unlikely]]
      throw std::length_error("weft: a chain of two pipelines with more than SIZE_MAX items");
  }
  template <bool Reversed, class N, class C>
  static auto drive_side(N& node, C c, const plumbing::split_options& opt) {
    const auto go = [&node, &opt](auto consumer) {
      if constexpr (Reversed)
        return detail::drive_reversed(node, std::move(consumer), opt);
      else
        return detail::drive(node, std::move(consumer), opt);
    };
    if constexpr (std::is_same_v<typename N::item_type, item_type>) {
      return go(std::move(c));
    } else {
      using as = chain_item_as<item_type>;
      static constexpr as tag{};
      return go(wrapping_consumer<C, as, chain_convert_folder>{std::move(c), &tag});
    }
  }

  A a_;
  B b_;
};

}  // namespace weft::detail
