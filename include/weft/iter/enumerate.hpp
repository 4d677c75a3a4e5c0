// SPDX-License-Identifier: MIT
// enumerate(): each item x at position i becomes std::pair{i, x}. Indexed only.
#pragma once

#include <cstddef>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <class P>
struct enumerate_producer {
  P base;
  std::size_t offset;

  std::size_t size() const { return base.size(); }
  std::pair<std::size_t, plumbing::item_t<P>> operator[](std::size_t i) const {
    return {offset + i, base[i]};
  }
  enumerate_producer slice(std::size_t lo, std::size_t hi) const {
    return {base.slice(lo, hi), offset + lo};
  }

  std::size_t front_size() const requires plumbing::concatenates<P> { return base.front_size(); }
  auto front_part() const requires plumbing::concatenates<P> {
    return enumerate_producer<decltype(base.front_part())>{base.front_part(), offset};
  }
  auto back_part() const requires plumbing::concatenates<P> {
    return enumerate_producer<decltype(base.back_part())>{base.back_part(), offset};
  }
};

template <indexed_node Base>
class enumerate_node {
 public:
  static constexpr bool indexed = true;
  static constexpr bool producer_borrows_only = detail::producer_borrows_only<Base>;
  static constexpr bool makes_owned_views = detail::makes_owned_views<Base>;
  using item_type = std::pair<std::size_t, typename Base::item_type>;

  explicit enumerate_node(Base base) : base_(std::move(base)) {}
  std::size_t size() { return base_.size(); }
  auto producer() { return enumerate_producer<decltype(base_.producer())>{base_.producer(), 0}; }

 private:
  Base base_;
};

}  // namespace weft::detail
