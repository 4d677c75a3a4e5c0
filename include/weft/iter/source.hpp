// SPDX-License-Identifier: MIT
// Sources: a random-access range (borrowed or moved in) and an integer range.
#pragma once

#include <concepts>
#include <cstddef>
#include <iterator>
#include <memory>
#include <ranges>
#include <type_traits>
#include <utility>

#include "weft/plumbing/producer.hpp"
#include "weft/plumbing/range_producers.hpp"

namespace weft::detail {

template <class Range>
auto source_producer(Range& r, std::size_t n) {
  if constexpr (std::ranges::contiguous_range<Range>)
    return span_producer<decltype(std::ranges::data(r))>{std::ranges::data(r), n};
  else
    return span_producer<std::ranges::iterator_t<Range>>{std::ranges::begin(r), n};
}

// R is `X&` for a borrowed lvalue range, `X` for a range moved into the pipeline.
template <class R>
class range_node {
  using range_type = std::remove_reference_t<R>;
  static constexpr bool borrowed = std::is_lvalue_reference_v<R>;
  using storage = std::conditional_t<borrowed, range_type*, range_type>;

 public:
  static constexpr bool indexed = true;
  static constexpr bool producer_borrows_only = borrowed;

  explicit range_node(R&& r) : r_(store(std::forward<R>(r))) {}

  std::size_t size() {
    if constexpr (std::ranges::sized_range<range_type>)
      return static_cast<std::size_t>(std::ranges::size(get()));
    else
      return static_cast<std::size_t>(std::ranges::distance(get()));
  }

  auto producer() { return source_producer(get(), size()); }

  using item_type =
      plumbing::item_t<decltype(source_producer(std::declval<range_type&>(), 0))>;

 private:
  static storage store(R&& r) {
    if constexpr (borrowed)
      return std::addressof(r);
    else
      return std::move(r);
  }
  range_type& get() {
    if constexpr (borrowed)
      return *r_;
    else
      return r_;
  }
  storage r_;
};

template <std::integral T>
class iota_node {
 public:
  static constexpr bool indexed = true;
  static constexpr bool producer_borrows_only = true;
  using item_type = T;

  iota_node(T first, T last) : first_(first) {
    using U = std::make_unsigned_t<T>;
    n_ = last > first ? static_cast<std::size_t>(
                            static_cast<U>(static_cast<U>(last) - static_cast<U>(first)))
                      : 0;
  }
  std::size_t size() const { return n_; }
  iota_producer<T> producer() const { return {first_, n_}; }

 private:
  T first_;
  std::size_t n_;
};

}  // namespace weft::detail
