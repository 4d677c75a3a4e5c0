// SPDX-License-Identifier: MIT
// flat_map(f): f returns a range; its elements replace the item, in order. Unindexed.
// The inner range of one item is walked sequentially by the thread that holds the item;
// parallelism comes from the outer items.
#pragma once

#include <cstddef>
#include <functional>
#include <ranges>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <class Inner, class F>
struct flat_map_folder : wrapping_folder<Inner, F> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    auto&& inner_range = std::invoke(*this->fn, std::forward<T>(x));
    for (auto&& y : inner_range) {
      this->inner.consume(i, std::forward<decltype(y)>(y));
      if constexpr (plumbing::folder_stops_early<Inner>)
        if (this->inner.done()) return;
    }
  }
};

template <class Base, class F>
using flat_map_node = callable_node<
    Base, F,
    std::ranges::range_reference_t<std::invoke_result_t<const F&, typename Base::item_type>>,
    flat_map_folder>;

}  // namespace weft::detail
