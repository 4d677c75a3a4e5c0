// SPDX-License-Identifier: MIT
// The producers over memory and over integers: a random-access iterator and a length
// (span_producer), an integer range (iota_producer). The pipelines' sources wrap them; the
// block engine hands the algorithms [0, n) as an iota_producer.
#pragma once

#include <concepts>
#include <cstddef>
#include <iterator>
#include <type_traits>

namespace weft::detail {

// std::vector<bool> packs its elements into shared words, so writes to two of them from two
// threads race: the standard exempts it from the guarantee that lets threads write different
// elements of one container. Its mutable iterators (any allocator, any standard library)
// are the ones whose value is bool and whose reference is an assignable proxy; const
// iterators yield plain bools and stay safe to read from many threads.
template <class It>
concept writes_packed_bits =
    requires {
      typename std::iter_value_t<It>;
      typename std::iter_reference_t<It>;
    } && std::same_as<std::iter_value_t<It>, bool> &&
    !std::is_reference_v<std::iter_reference_t<It>> &&
    std::is_assignable_v<std::iter_reference_t<It>, bool>;

template <class It>
struct span_producer {
  It first;
  std::size_t n;

  std::size_t size() const { return n; }
  decltype(auto) operator[](std::size_t i) const {
    return first[static_cast<std::iter_difference_t<It>>(i)];
  }
  span_producer slice(std::size_t lo, std::size_t hi) const {
    return {first + static_cast<std::iter_difference_t<It>>(lo), hi - lo};
  }
  It begin_at(std::size_t i) const { return first + static_cast<std::iter_difference_t<It>>(i); }
};

// Position arithmetic is done in the unsigned type: first + i never overflows a signed type.
// `Nonnegative`: the form the leaf loop uses when first >= 0 (plumbing::refines_nonnegative);
// every item is then in [first, last) with last a T, so >= 0, and the compiler is told.
template <class T, bool Nonnegative = false>
struct iota_producer {
  using unsigned_type = std::make_unsigned_t<T>;
  T first;
  std::size_t n;

  std::size_t size() const { return n; }
  T operator[](std::size_t i) const {
    const T x = static_cast<T>(static_cast<unsigned_type>(static_cast<unsigned_type>(first) +
                                                          static_cast<unsigned_type>(i)));
    if constexpr (Nonnegative)
      if (x < 0) __builtin_unreachable();
    return x;
  }
  iota_producer slice(std::size_t lo, std::size_t hi) const { return {(*this)[lo], hi - lo}; }
  // plumbing::walks. (*this)[n] is the range's `last`, so `end` never overflows.
  template <class G>
  bool walk(std::size_t lo, std::size_t hi, G&& g) const {
    std::size_t i = lo;
    for (T x = (*this)[lo], end = (*this)[hi]; x < end; ++x, ++i)
      if (!g(i, T(x))) return false;  // an item is a value, as (*this)[i] is
    return true;
  }
  // plumbing::walks_back. x stops at (*this)[lo], the range's first item at worst: no
  // underflow either.
  template <class G>
  bool walk_back(std::size_t lo, std::size_t hi, G&& g) const {
    std::size_t i = hi;
    for (T x = (*this)[hi], begin = (*this)[lo]; x > begin;) {
      --x;
      --i;
      if (!g(i, T(x))) return false;
    }
    return true;
  }

  bool items_nonnegative() const requires(std::is_signed_v<T> && !Nonnegative) {
    return first >= 0;
  }
  iota_producer<T, true> nonnegative_form() const requires(std::is_signed_v<T> && !Nonnegative) {
    return {first, n};
  }
};

}  // namespace weft::detail
