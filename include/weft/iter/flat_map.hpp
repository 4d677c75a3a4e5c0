// SPDX-License-Identifier: MIT
// flat_map(f): f returns a range; its elements replace the item, in order. Unindexed.
// The inner range of one item is walked sequentially by the thread that holds the item;
// parallelism comes from the outer items.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <ranges>
#include <type_traits>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

// A container that f returns by value dies after its walk: its elements are moved out, as
// Rayon's flat_map yields a Vec's items by value. That is what lets a flat_map of move-only
// items reach to_vector or find_first, and spares a copy of each string. Anything else (a
// returned reference, a std view, a range-v3 view, which std::ranges::view does not
// recognise) may refer to someone else's elements: they are passed as the range yields them.
// "Container" is recognised conservatively: an allocator-aware one (every std container and
// std::string) or a std::array; a container it misses is copied from, which is only slower.
template <class R>
inline constexpr bool is_std_array = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array<std::array<T, N>> = true;

template <class R>
inline constexpr bool owns_its_elements =
    !std::is_reference_v<R> && !std::ranges::view<R> && !std::ranges::borrowed_range<R> &&
    (is_std_array<R> || requires { typename R::allocator_type; });

template <class R>
using flat_map_item_t = std::conditional_t<owns_its_elements<R>, std::ranges::range_rvalue_reference_t<R>,
                                           std::ranges::range_reference_t<R>>;

// Passes the element at `it` of an inner range of type R on to `inner` (moved out when R owns
// its elements); true when `inner` wants no more.
template <class R, class Inner, class It>
bool flat_map_hand_on(Inner& inner, std::size_t i, It& it) {
  if constexpr (owns_its_elements<R>)
    inner.consume(i, std::ranges::iter_move(it));
  else
    inner.consume(i, *it);
  if constexpr (plumbing::folder_stops_early<Inner>)
    return inner.done();
  else
    return false;
}

template <class Inner, class F>
struct flat_map_folder : wrapping_folder<Inner, F> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    using range_type = std::invoke_result_t<const F&, T>;
    auto&& inner_range = std::invoke(*this->fn, std::forward<T>(x));
    const auto last = std::ranges::end(inner_range);  // may be a sentinel, not an iterator
    for (auto it = std::ranges::begin(inner_range); it != last; ++it)
      if (flat_map_hand_on<range_type>(this->inner, i, it)) return;
  }
};

// flatten(): an item that is a reference stays one (its elements are passed as the range
// yields them); an item made by the pipeline is returned by value, so that a container's
// elements are moved out, as flat_map does with a container its callable returns.
struct flatten_item {
  template <class T>
  auto operator()(T&& x) const
      -> std::conditional_t<std::is_lvalue_reference_v<T>, T, std::remove_cvref_t<T>> {
    return std::forward<T>(x);
  }
};

// flat_map driven in reverse (drive_reversed: find_last) walks each inner range from its
// end, so that the items reach the consumer in the reverse of the pipeline's order. It
// needs an inner range that can be walked backwards; a forward-only one (std::forward_list,
// an input view) leaves the pipeline to the unreversed search.
template <class Inner, class F>
struct flat_map_reversed_folder : wrapping_folder<Inner, F> {
  template <class T>
  void consume(std::size_t i, T&& x) {
    using range_type = std::invoke_result_t<const F&, T>;
    auto&& inner_range = std::invoke(*this->fn, std::forward<T>(x));
    const auto first = std::ranges::begin(inner_range);
    for (auto it = std::ranges::end(inner_range); it != first;) {
      --it;
      if (flat_map_hand_on<range_type>(this->inner, i, it)) return;
    }
  }
};

template <>
struct reversed_folder<flat_map_folder> {
  template <class Inner, class F>
  using type = flat_map_reversed_folder<Inner, F>;
};
template <class F, class Item>
constexpr bool folder_reverses<flat_map_folder, F, Item> =
    std::ranges::bidirectional_range<std::invoke_result_t<const F&, Item>> &&
    std::ranges::common_range<std::invoke_result_t<const F&, Item>>;

template <class Base, class F>
using flat_map_node =
    callable_node<Base, F, flat_map_item_t<std::invoke_result_t<const F&, typename Base::item_type>>,
                  flat_map_folder>;

}  // namespace weft::detail
