// SPDX-License-Identifier: MIT
// map(f): each item x becomes f(x). Index-preserving: a producer when its base is indexed.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <class P, class F>
struct map_producer {
  P base;
  const F* f;

  std::size_t size() const { return base.size(); }
  decltype(auto) operator[](std::size_t i) const { return std::invoke(*f, base[i]); }
  map_producer slice(std::size_t lo, std::size_t hi) const { return {base.slice(lo, hi), f}; }
};

template <class Inner, class F>
struct map_folder : wrapping_folder<Inner, F> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    this->inner.consume(i, std::invoke(*this->fn, std::forward<T>(x)));
  }
};

template <class Base, class F>
class map_node {
 public:
  static constexpr bool indexed = Base::indexed;
  using item_type = std::invoke_result_t<const F&, typename Base::item_type>;

  map_node(Base base, F f) : base_(std::move(base)), f_(std::move(f)) {}

  std::size_t size()
    requires indexed
  {
    return base_.size();
  }
  auto producer()
    requires indexed
  {
    return map_producer<decltype(base_.producer()), F>{base_.producer(), &f_};
  }
  template <plumbing::consumer C>
  auto drive(C c, const plumbing::split_options& opt) {
    return detail::drive(base_, wrapping_consumer<C, F, map_folder>{std::move(c), &f_}, opt);
  }

 private:
  Base base_;
  F f_;
};

}  // namespace weft::detail
