// SPDX-License-Identifier: MIT
// weft::extend(container, items): appends a pipeline's items to an existing container
// (Rayon's par_extend). A contiguous container and an indexed pipeline take the direct path
// (grow once, write every item in place in parallel); anything else collects first.
#pragma once

#include <cstddef>
#include <iterator>
#include <span>
#include <tuple>
#include <concepts>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/iter/fwd.hpp"

namespace weft {
namespace detail {
template <class C, class V>
concept grows_in_place = requires(C& c, std::size_t n) {
  { c.data() } -> std::same_as<V*>;
  c.resize(n);
} && std::is_default_constructible_v<V> && std::is_move_assignable_v<V>;
}  // namespace detail

/// Appends the items of `items` (a pipeline, or a range as weft::iter takes it) to
/// `container`, in the pipeline's order for a sequence container, as insert() places them
/// for an associative one. Exceptions: whatever an item throws reaches the caller and
/// `container` keeps exactly its old elements.
/// Cost: a contiguous container (std::vector, std::string, ...; not std::vector<bool>) fed
/// by an indexed pipeline grows once (value-initialising the new room) and is written in
/// place by the pool; otherwise the items are collected into a std::vector in parallel and
/// then inserted by the calling thread (a std::set or std::map inserts one by one).
/// `items` must not read `container` itself.
template <class Container, class Items>
void extend(Container& container, Items&& items) {
  auto source = weft::iter(std::forward<Items>(items));
  using P = decltype(source);
  using V = typename Container::value_type;
  static_assert(std::is_constructible_v<V, typename P::item_type>,
                "weft::extend(container, items): the container's value_type must be "
                "constructible from the items (a move-only item is moved where the pipeline "
                "makes it by value, e.g. by a map; an item that refers into a range is "
                "copied)");
  if constexpr (P::indexed && detail::grows_in_place<Container, V> &&
                std::is_assignable_v<V&, typename P::item_type>) {
    const std::size_t old = container.size();
    const std::size_t n = source.size();
    container.resize(old + n);
    try {
      weft::iter(std::span<V>(container.data() + old, n))
          .zip(std::move(source))
          .for_each([](auto&& slot_item) {
            // get<1> of the pair as it came: moves an item made by value, copies one that
            // is a reference into another range.
            std::get<0>(slot_item) = std::get<1>(std::forward<decltype(slot_item)>(slot_item));
          });
    } catch (...) {
      container.resize(old);
      throw;
    }
  } else {
    auto collected = std::move(source).to_vector();
    if constexpr (requires { container.insert(container.end(), collected.begin(), collected.end()); }) {
      container.insert(container.end(), std::make_move_iterator(collected.begin()),
                       std::make_move_iterator(collected.end()));
    } else {
      container.insert(std::make_move_iterator(collected.begin()),
                       std::make_move_iterator(collected.end()));
    }
  }
}

}  // namespace weft
