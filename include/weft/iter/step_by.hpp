// SPDX-License-Identifier: MIT
// step_by(k): items 0, k, 2k, ... of the base. Indexed only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <class P>
struct step_producer {
  P base;
  std::size_t step;

  std::size_t size() const { return runs_covering(base.size(), step); }
  decltype(auto) operator[](std::size_t i) const { return base[i * step]; }
  step_producer slice(std::size_t lo, std::size_t hi) const {
    const std::size_t n = base.size();
    return {base.slice(run_start_capped(lo, step, n), run_start_capped(hi, step, n)), step};
  }

  bool items_nonnegative() const requires plumbing::refines_nonnegative<P> {
    return base.items_nonnegative();
  }
  auto nonnegative_form() const requires plumbing::refines_nonnegative<P> {
    return step_producer<decltype(base.nonnegative_form())>{base.nonnegative_form(), step};
  }
};

template <indexed_node Base>
class step_by_node {
 public:
  static constexpr bool indexed = true;
  static constexpr bool producer_borrows_only = detail::producer_borrows_only<Base>;
  static constexpr bool makes_owned_views = detail::makes_owned_views<Base>;
  using item_type = typename Base::item_type;

  step_by_node(Base base, std::size_t step) : base_(std::move(base)), step_(step) {}
  std::size_t size() { return runs_covering(base_.size(), step_); }
  auto producer() { return step_producer<decltype(base_.producer())>{base_.producer(), step_}; }

 private:
  Base base_;
  std::size_t step_;
};

}  // namespace weft::detail
