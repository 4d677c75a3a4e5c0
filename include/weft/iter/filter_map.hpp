// SPDX-License-Identifier: MIT
// filter_map(f): f returns a std::optional; keeps the engaged values. Unindexed.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <class Inner, class F>
struct filter_map_folder : wrapping_folder<Inner, F> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    auto maybe = std::invoke(*this->fn, std::forward<T>(x));
    if (maybe) this->inner.consume(i, *std::move(maybe));
  }
};

template <class Base, class F>
using filter_map_node = callable_node<
    Base, F,
    typename std::remove_cvref_t<std::invoke_result_t<const F&, typename Base::item_type>>::value_type,
    filter_map_folder>;

}  // namespace weft::detail
