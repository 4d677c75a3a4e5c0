// SPDX-License-Identifier: MIT
// The value type a consumer stores for an item: references and cv dropped, also inside the
// pairs that enumerate() and zip() make.
#pragma once

#include <type_traits>
#include <utility>

namespace weft::detail {

template <class T>
struct value_of_impl {
  using type = std::remove_cvref_t<T>;
};
template <class A, class B>
struct value_of_impl<std::pair<A, B>> {
  using type = std::pair<typename value_of_impl<std::remove_cvref_t<A>>::type,
                         typename value_of_impl<std::remove_cvref_t<B>>::type>;
};
template <class T>
using value_of = typename value_of_impl<std::remove_cvref_t<T>>::type;

template <class T>
constexpr bool is_pair = false;
template <class A, class B>
constexpr bool is_pair<std::pair<A, B>> = true;

// The result of operations that only have effects (for_each, indexed collect).
struct no_result {};

}  // namespace weft::detail
