// SPDX-License-Identifier: MIT
// filter(p): keeps the items for which p(item) is true. Drops items, so the pipeline after
// it is unindexed: the consumer is wrapped instead of the producer.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>

#include "weft/iter/node.hpp"
#include "weft/plumbing/consumer.hpp"

namespace weft::detail {

template <class Inner, class P>
struct filter_folder : wrapping_folder<Inner, P> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    if constexpr (plumbing::folds_predicated<Inner, T>) {
      const bool keep = static_cast<bool>(std::invoke(*this->fn, std::as_const(x)));
      this->inner.consume_if(keep, i, std::forward<T>(x));
    } else if (std::invoke(*this->fn, std::as_const(x))) {
      this->inner.consume(i, std::forward<T>(x));
    }
  }
};

template <class Base, class P>
using filter_node = callable_node<Base, P, typename Base::item_type, filter_folder>;

}  // namespace weft::detail
