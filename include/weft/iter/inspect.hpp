// SPDX-License-Identifier: MIT
// inspect(f): calls f(item) for its side effect and passes the item on unchanged.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

template <class P, class F>
struct inspect_producer {
  P base;
  const F* f;

  std::size_t size() const { return base.size(); }
  plumbing::item_t<P> operator[](std::size_t i) const {
    plumbing::item_t<P> x = base[i];
    std::invoke(*f, std::as_const(x));
    return std::forward<plumbing::item_t<P>>(x);
  }
  inspect_producer slice(std::size_t lo, std::size_t hi) const { return {base.slice(lo, hi), f}; }
  template <class G>
  bool walk(std::size_t lo, std::size_t hi, G&& g) const requires plumbing::walks<P> {
    return base.walk(lo, hi, inspected(g));
  }
  template <class G>
  bool walk_back(std::size_t lo, std::size_t hi, G&& g) const requires plumbing::walks_back<P> {
    return base.walk_back(lo, hi, inspected(g));
  }
  template <class G>
  auto inspected(G& g) const {
    return [&g, fn = f](std::size_t i, auto&& x) {
      std::invoke(*fn, std::as_const(x));
      return g(i, std::forward<decltype(x)>(x));
    };
  }

  bool items_nonnegative() const requires plumbing::refines_nonnegative<P> {
    return base.items_nonnegative();
  }
  auto nonnegative_form() const requires plumbing::refines_nonnegative<P> {
    return inspect_producer<decltype(base.nonnegative_form()), F>{base.nonnegative_form(), f};
  }

  std::size_t front_size() const requires plumbing::concatenates<P> { return base.front_size(); }
  auto front_part() const requires plumbing::concatenates<P> {
    return inspect_producer<decltype(base.front_part()), F>{base.front_part(), f};
  }
  auto back_part() const requires plumbing::concatenates<P> {
    return inspect_producer<decltype(base.back_part()), F>{base.back_part(), f};
  }
};

template <class Inner, class F>
struct inspect_folder : wrapping_folder<Inner, F> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    std::invoke(*this->fn, std::as_const(x));
    this->inner.consume(i, std::forward<T>(x));
  }
};

template <class Base, class F>
using inspect_node =
    callable_node<Base, F, typename Base::item_type, inspect_folder, inspect_producer>;

}  // namespace weft::detail
