// SPDX-License-Identifier: MIT
// for_each, for_each_n: the policy overloads and the range overload weft::for_each(r, f).
#pragma once

#include <algorithm>
#include <iterator>
#include <ranges>
#include <type_traits>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/execution.hpp"

namespace weft {

/// Calls `f(x)` for every element of [first, last). With a parallel policy and random-access
/// iterators the elements are split over the current pool and `f` (copied once per block)
/// runs on several threads at once; otherwise this is `std::for_each(first, last, f)`.
/// Exceptions: the first exception thrown by `f` propagates; elements not yet visited may
/// be skipped. No allocation. O(n) calls of `f`.
template <execution_policy Policy, class It, class F>
void for_each(Policy&&, It first, It last, F f) {
  static_assert(std::forward_iterator<It>,
                "weft::for_each(policy, first, last, f): first and last must be forward "
                "iterators of the same type");
  static_assert(std::is_invocable_v<F&, std::iter_reference_t<It>>,
                "weft::for_each: f must be callable with an element of [first, last)");
  if constexpr (detail::algo::runs_parallel<Policy, It>) {
    detail::algo::for_blocks(detail::algo::distance(first, last),
                             [&](std::size_t lo, std::size_t hi) {
                               std::for_each(detail::algo::advance(first, lo),
                                             detail::algo::advance(first, hi), f);
                             });
  } else {
    std::for_each(first, last, f);
  }
}

/// As `for_each` on [first, first + n); returns first + n. n <= 0 does nothing.
template <execution_policy Policy, class It, class Size, class F>
It for_each_n(Policy&& policy, It first, Size n, F f) {
  static_assert(std::forward_iterator<It>,
                "weft::for_each_n(policy, first, n, f): first must be a forward iterator");
  static_assert(std::is_integral_v<Size> || std::is_convertible_v<Size, std::ptrdiff_t>,
                "weft::for_each_n: n must be an integer");
  if (n <= Size(0)) return first;
  const It last = std::next(first, static_cast<std::iter_difference_t<It>>(n));
  weft::for_each(std::forward<Policy>(policy), first, last, std::move(f));
  return last;
}

/// Range overload: `weft::for_each(v, f)` runs `weft::for_each(weft::par, ...)` over `r`.
template <std::ranges::forward_range R, class F>
  requires(!execution_policy<R>)
void for_each(R&& r, F f) {
  weft::for_each(execution::parallel_policy{}, std::ranges::begin(r), std::ranges::end(r),
                 std::move(f));
}

}  // namespace weft
