// SPDX-License-Identifier: MIT
// take(n) and skip(n): the first n items, or all but the first n. Indexed only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <indexed_node Base>
class take_skip_node {
 public:
  static constexpr bool indexed = true;
  static constexpr bool producer_borrows_only = detail::producer_borrows_only<Base>;
  static constexpr bool makes_owned_views = detail::makes_owned_views<Base>;
  using item_type = typename Base::item_type;

  // Keeps items [skip, skip + take) of the base, clamped to its length.
  take_skip_node(Base base, std::size_t skip, std::size_t take)
      : base_(std::move(base)), skip_(skip), take_(take) {}
  std::size_t size() {
    const std::size_t n = base_.size();
    const std::size_t lo = std::min(n, skip_);
    return std::min(n - lo, take_);
  }
  auto producer() {
    const std::size_t lo = std::min(base_.size(), skip_);
    return base_.producer().slice(lo, lo + size());
  }

 private:
  Base base_;
  std::size_t skip_;
  std::size_t take_;
};

}  // namespace weft::detail
