// SPDX-License-Identifier: MIT
// filter(p): keeps the items for which p(item) is true. Drops items, so the pipeline after
// it is unindexed: the consumer is wrapped instead of the producer.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <class Inner, class P>
struct filter_folder : wrapping_folder<Inner, P> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    if (std::invoke(*this->fn, std::as_const(x))) this->inner.consume(i, std::forward<T>(x));
  }
};

template <class Base, class P>
using filter_node = callable_node<Base, P, typename Base::item_type, filter_folder>;

}  // namespace weft::detail
