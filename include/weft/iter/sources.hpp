// SPDX-License-Identifier: MIT
// The sources of pipelines other than weft::iter(r): range(a, b), repeat_n, once, empty and
// repeat. Each builds a par_iter over one of the nodes of iter/source.hpp and iter/repeat.hpp.
#pragma once

#include <concepts>
#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "weft/iter/fwd.hpp"
#include "weft/iter/repeat.hpp"
#include "weft/iter/source.hpp"

namespace weft {

/// The integers first, first + 1, ..., last - 1 (empty when last <= first), of the common
/// type of the arguments (`range(0, v.size())`: std::size_t). Exceptions: std::out_of_range
/// when a bound does not fit that type, i.e. a negative bound mixed with an unsigned one of
/// the same width or wider (`range(-3, 5u)` would otherwise count from 4294967293): make
/// both signed (`range(-3, 5)`), as std::views::iota would need too.
template <std::integral A, std::integral B>
auto range(A first, B last) {
  using T = std::common_type_t<A, B>;
  static_assert(!std::is_same_v<T, bool>, "weft::range(first, last): bool is not a counting type");
  static_assert(sizeof(T) <= sizeof(std::size_t),
                "weft::range(first, last): the items' type is wider than std::size_t, so the "
                "range's length could not be counted");
  if constexpr (std::is_signed_v<A> != std::is_signed_v<B>) {
    if (!std::in_range<T>(first) || !std::in_range<T>(last)) [[unlikely]]
      throw std::out_of_range(
          "weft::range(first, last): a negative bound with an unsigned one: the items' type "
          "(their common type) is unsigned and cannot hold it; make both bounds signed");
  }
  return par_iter<detail::iota_node<T>>(
      detail::iota_node<T>(static_cast<T>(first), static_cast<T>(last)));
}

/// `n` copies of `value` (Rayon's `repeat_n`): an indexed pipeline whose items are copies,
/// made as they are consumed (each item is a fresh `T`). The pipeline owns `value`.
template <class T>
auto repeat_n(T value, std::size_t n) {
  static_assert(std::is_copy_constructible_v<T>,
                "weft::repeat_n(value, n): the items are copies of value, so T must be copyable");
  return par_iter<detail::repeat_node<T>>(detail::repeat_node<T>(std::move(value), n));
}

/// One item, `value` (Rayon's `once`).
template <class T>
auto once(T value) {
  return weft::repeat_n(std::move(value), 1);
}

/// No items of type `T` (Rayon's `empty`): an indexed pipeline of length 0, for code that
/// needs a pipeline where there is nothing (a `chain`'s side, a default).
template <class T>
auto empty() {
  return par_iter<detail::empty_node<T>>(detail::empty_node<T>{});
}

/// Copies of `value` without end (Rayon's `repeat`). weft's pipelines have a length, so an
/// endless one is used through what bounds it, as Rayon's documentation advises: `take(n)`
/// (`repeat_n(value, n)`) or `zip(other)` (each item of `other` with a copy of `value`).
template <class T>
class repeat_source {
 public:
  explicit repeat_source(T value) : value_(std::move(value)) {}
  /// `n` copies: `repeat_n(value, n)`.
  auto take(std::size_t n) const& { return weft::repeat_n(value_, n); }
  auto take(std::size_t n) && { return weft::repeat_n(std::move(value_), n); }
  /// Pairs `(value, item)` for every item of `other` (a range or an indexed pipeline), as
  /// `repeat_n(value, size).zip(other)`.
  template <class Other>
  auto zip(Other&& other) && {
    auto rest = weft::iter(std::forward<Other>(other));
    const std::size_t n = rest.size();
    return weft::repeat_n(std::move(value_), n).zip(std::move(rest));
  }
  template <class Other>
  auto zip(Other&& other) const& {
    return repeat_source(*this).zip(std::forward<Other>(other));
  }

 private:
  T value_;
};

/// Copies of `value` without end; see repeat_source (`repeat(x).take(n)`, `repeat(x).zip(v)`).
template <class T>
repeat_source<T> repeat(T value) {
  static_assert(std::is_copy_constructible_v<T>,
                "weft::repeat(value): the items are copies of value, so T must be copyable");
  return repeat_source<T>(std::move(value));
}

}  // namespace weft
