// SPDX-License-Identifier: MIT
// chain(other): the items of one indexed pipeline, then those of another. Indexed only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "weft/iter/node.hpp"

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

template <class A, class B>
using chain_item_t = std::common_reference_t<typename A::item_type, typename B::item_type>;

template <indexed_node A, indexed_node B>
class chain_node {
 public:
  static constexpr bool indexed = true;
  using item_type = chain_item_t<A, B>;

  chain_node(A a, B b) : a_(std::move(a)), b_(std::move(b)) {}
  std::size_t size() { return a_.size() + b_.size(); }
  auto producer() {
    auto pa = a_.producer();
    auto pb = b_.producer();
    return chain_producer<decltype(pa), decltype(pb), item_type>{pa, pb};
  }

 private:
  A a_;
  B b_;
};

}  // namespace weft::detail
