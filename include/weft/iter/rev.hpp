// SPDX-License-Identifier: MIT
// rev(): the items in reverse order. Indexed only.
#pragma once

#include <cstddef>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <class P>
struct rev_producer {
  P base;

  std::size_t size() const { return base.size(); }
  decltype(auto) operator[](std::size_t i) const { return base[base.size() - 1 - i]; }
  rev_producer slice(std::size_t lo, std::size_t hi) const {
    const std::size_t n = base.size();
    return {base.slice(n - hi, n - lo)};
  }
};

template <indexed_node Base>
class rev_node {
 public:
  static constexpr bool indexed = true;
  using item_type = typename Base::item_type;

  explicit rev_node(Base base) : base_(std::move(base)) {}
  std::size_t size() { return base_.size(); }
  auto producer() { return rev_producer<decltype(base_.producer())>{base_.producer()}; }

 private:
  Base base_;
};

}  // namespace weft::detail
