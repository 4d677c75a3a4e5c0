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
class filter_node {
 public:
  static constexpr bool indexed = false;
  using item_type = typename Base::item_type;

  filter_node(Base base, P p) : base_(std::move(base)), p_(std::move(p)) {}

  template <plumbing::consumer C>
  auto drive(C c, const plumbing::split_options& opt) {
    return detail::drive(base_, wrapping_consumer<C, P, filter_folder>{std::move(c), &p_}, opt);
  }

 private:
  Base base_;
  P p_;
};

}  // namespace weft::detail
