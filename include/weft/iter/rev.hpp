// SPDX-License-Identifier: MIT
// rev(): the items in reverse order. Indexed only.
#pragma once

#include <cstddef>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

// Position i is the base's position n - 1 - i. `n` is the base's size, except for the parts
// of a reversed chain (plumbing::concatenates): a chain's part keeps the chain's positions,
// so the reversed part of the back side is the front part of the reversed chain, and so on.
template <class P>
struct rev_producer {
  P base;
  std::size_t n;

  static rev_producer of(P p) {
    const std::size_t size = p.size();
    return {std::move(p), size};
  }
  std::size_t size() const { return n; }
  decltype(auto) operator[](std::size_t i) const { return base[n - 1 - i]; }
  rev_producer slice(std::size_t lo, std::size_t hi) const {
    return {base.slice(n - hi, n - lo), hi - lo};
  }
  // Position i is the base's n - 1 - i: walking up here is walking the base down.
  template <class G>
  bool walk(std::size_t lo, std::size_t hi, G&& g) const requires plumbing::walks_back<P> {
    return base.walk_back(n - hi, n - lo, mirrored(g));
  }
  template <class G>
  bool walk_back(std::size_t lo, std::size_t hi, G&& g) const requires plumbing::walks<P> {
    return base.walk(n - hi, n - lo, mirrored(g));
  }
  template <class G>
  auto mirrored(G& g) const {
    return [&g, last = n - 1](std::size_t j, auto&& x) {
      return g(last - j, std::forward<decltype(x)>(x));
    };
  }

  bool items_nonnegative() const requires plumbing::refines_nonnegative<P> {
    return base.items_nonnegative();
  }
  auto nonnegative_form() const requires plumbing::refines_nonnegative<P> {
    return rev_producer<decltype(base.nonnegative_form())>{base.nonnegative_form(), n};
  }

  std::size_t front_size() const requires plumbing::concatenates<P> {
    return n - base.front_size();
  }
  auto front_part() const requires plumbing::concatenates<P> {
    return rev_producer<decltype(base.back_part())>{base.back_part(), n};
  }
  auto back_part() const requires plumbing::concatenates<P> {
    return rev_producer<decltype(base.front_part())>{base.front_part(), n};
  }
};

template <indexed_node Base>
class rev_node {
 public:
  static constexpr bool indexed = true;
  static constexpr bool producer_borrows_only = detail::producer_borrows_only<Base>;
  static constexpr bool makes_owned_views = detail::makes_owned_views<Base>;
  using item_type = typename Base::item_type;

  explicit rev_node(Base base) : base_(std::move(base)) {}
  std::size_t size() { return base_.size(); }
  auto producer() { return rev_producer<decltype(base_.producer())>::of(base_.producer()); }

 private:
  Base base_;
};

}  // namespace weft::detail
