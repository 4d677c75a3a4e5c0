// SPDX-License-Identifier: MIT
// map(f): each item x becomes f(x). Index-preserving: a producer when its base is indexed.
#pragma once

#include <cstddef>
#include <functional>
#include <type_traits>
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
  template <class G>
  bool walk(std::size_t lo, std::size_t hi, G&& g) const requires plumbing::walks<P> {
    return base.walk(lo, hi, mapped(g));
  }
  template <class G>
  bool walk_back(std::size_t lo, std::size_t hi, G&& g) const requires plumbing::walks_back<P> {
    return base.walk_back(lo, hi, mapped(g));
  }
  template <class G>
  auto mapped(G& g) const {
    return [&g, fn = f](std::size_t i, auto&& x) {
      return g(i, std::invoke(*fn, std::forward<decltype(x)>(x)));
    };
  }

  bool items_nonnegative() const requires plumbing::refines_nonnegative<P> {
    return base.items_nonnegative();
  }
  auto nonnegative_form() const requires plumbing::refines_nonnegative<P> {
    return map_producer<decltype(base.nonnegative_form()), F>{base.nonnegative_form(), f};
  }

  std::size_t front_size() const requires plumbing::concatenates<P> { return base.front_size(); }
  auto front_part() const requires plumbing::concatenates<P> {
    return map_producer<decltype(base.front_part()), F>{base.front_part(), f};
  }
  auto back_part() const requires plumbing::concatenates<P> {
    return map_producer<decltype(base.back_part()), F>{base.back_part(), f};
  }
};

template <class Inner, class F>
struct map_folder : wrapping_folder<Inner, F> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    this->inner.consume(i, std::invoke(*this->fn, std::forward<T>(x)));
  }
};

// An indexed node seen through f, by reference: map_node's producer, owning neither the node
// nor f. A consumer that applies a callable itself (try_for_each, find_map_first) drives this
// when its pipeline is indexed, so that the callable runs on the producer's side, as after a
// .map(f): a search then reads each item once in its own tight loop (scan_first).
template <class N, class F>
struct mapped_node_ref {
  static constexpr bool indexed = true;
  using item_type = std::invoke_result_t<const F&, typename N::item_type>;
  N* node;
  const F* f;
  std::size_t size() { return node->size(); }
  auto producer() { return map_producer<decltype(node->producer()), F>{node->producer(), f}; }
};

// f with its result taken by value as R: a map producer of it hands out values, never
// references, so that a search never tests its items a group at a time (scan_first), which
// would call f past the item that decides the search.
template <class F, class R>
struct returning {
  const F* f;
  template <class X>
  R operator()(X&& x) const {
    return std::invoke(*f, std::forward<X>(x));
  }
};

template <class Base, class F>
using map_node = callable_node<Base, F, std::invoke_result_t<const F&, typename Base::item_type>,
                               map_folder, map_producer>;

}  // namespace weft::detail
