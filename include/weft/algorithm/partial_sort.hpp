// SPDX-License-Identifier: MIT
// partial_sort, partial_sort_copy, nth_element: selection, mostly on the calling thread.
// Why: docs/algorithms.md#sort
#pragma once

#include <algorithm>
#include <functional>
#include <iterator>
#include <type_traits>
#include <utility>

#include "weft/algorithm/sort.hpp"
#include "weft/kernels/seq_sort.hpp"
#include "weft/kernels/sort_dispatch.hpp"
#include "weft/execution.hpp"

namespace weft {

/// Rearranges [first, last) so that *nth is the element a full sort would put there, with no
/// element of [first, nth) greater and none of (nth, last) less. Runs an introselect on the
/// calling thread whatever the policy: its O(n) partition passes are bandwidth-bound and
/// shrink geometrically, so a parallel version only wins on the first pass or two, less than
/// its extra synchronisation here. Exceptions from `comp` propagate, and [first, last) then
/// holds every element exactly once, provided moving an element does not throw; a comparator
/// that holds an element less than itself may make it throw `weft::invalid_comparator`.
template <execution_policy Policy, class It, class Comp = std::less<>>
void nth_element(Policy&&, It first, It nth, It last, Comp comp = {}) {
  static_assert(std::random_access_iterator<It>,
                "weft::nth_element(policy, first, nth, last): the iterators must be "
                "random-access");
  // introselect's partition stays inside the range whatever the comparator answers
  // (docs/algorithms.md#invalid-comparators).
  detail::algo::introselect(first, nth, last, comp);
}

/// Puts the middle - first smallest elements, sorted, in [first, middle); the rest in no
/// particular order: `weft::nth_element` at middle - 1 on the calling thread (O(n)), then
/// `weft::sort` of [first, middle) with `policy` (in parallel with a parallel policy; when
/// middle is near last that is one full parallel sort). Exceptions from `comp` propagate,
/// with nth_element's and sort's guarantees.
template <execution_policy Policy, class It, class Comp = std::less<>>
void partial_sort(Policy&& policy, It first, It middle, It last, Comp comp = {}) {
  static_assert(std::random_access_iterator<It>,
                "weft::partial_sort(policy, first, middle, last): the iterators must be "
                "random-access");
  if (middle == first) return;
  if (middle != last) detail::algo::introselect(first, std::prev(middle), last, comp);
  weft::sort(std::forward<Policy>(policy), first, middle, comp);
}

/// Copies the min(n, d) smallest elements of [first, last), sorted, to [d_first, d_last) and
/// returns the end of what it wrote. Runs `std::partial_sort_copy` on the calling thread:
/// its heap of d_last - d_first elements is updated in input order, a sequential dependency.
template <execution_policy Policy, class It, class Out, class Comp = std::less<>>
Out partial_sort_copy(Policy&&, It first, It last, Out d_first, Out d_last, Comp comp = {}) {
  static_assert(std::forward_iterator<It> && std::random_access_iterator<Out>,
                "weft::partial_sort_copy: the input must be forward iterators and the "
                "output random-access iterators");
  return std::partial_sort_copy(first, last, d_first, d_last, comp);
}

}  // namespace weft
