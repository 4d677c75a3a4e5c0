// SPDX-License-Identifier: MIT
// zip(other): items std::pair{a_i, b_i}; as long as the shorter side. Indexed only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <class A, class B>
struct zip_producer {
  A a;
  B b;

  std::size_t size() const { return std::min<std::size_t>(a.size(), b.size()); }
  std::pair<plumbing::item_t<A>, plumbing::item_t<B>> operator[](std::size_t i) const {
    return {a[i], b[i]};
  }
  zip_producer slice(std::size_t lo, std::size_t hi) const {
    return {a.slice(lo, hi), b.slice(lo, hi)};
  }
};

template <indexed_node A, indexed_node B>
class zip_node {
 public:
  static constexpr bool indexed = true;
  using item_type = std::pair<typename A::item_type, typename B::item_type>;
  static constexpr bool producer_borrows_only =
      detail::producer_borrows_only<A> && detail::producer_borrows_only<B>;
  static constexpr bool makes_owned_views = detail::makes_owned_views<A> || detail::makes_owned_views<B>;

  zip_node(A a, B b) : a_(std::move(a)), b_(std::move(b)) {}
  std::size_t size() { return std::min<std::size_t>(a_.size(), b_.size()); }
  auto producer() {
    const std::size_t n = size();
    auto pa = a_.producer().slice(0, n);
    auto pb = b_.producer().slice(0, n);
    return zip_producer<decltype(pa), decltype(pb)>{pa, pb};
  }

 private:
  A a_;
  B b_;
};

}  // namespace weft::detail
