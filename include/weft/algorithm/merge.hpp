// SPDX-License-Identifier: MIT
// merge, inplace_merge: merge-path merges, each block of the output an independent task.
// docs/algorithms.md#sort
#pragma once

#include <algorithm>
#include <functional>
#include <iterator>
#include <type_traits>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/checks.hpp"
#include "weft/kernels/merge_path.hpp"
#include "weft/kernels/merge_sort.hpp"
#include "weft/kernels/sort_dispatch.hpp"
#include "weft/execution.hpp"

namespace weft {

/// Copies the stable merge of the sorted ranges [first1, last1) and [first2, last2) to
/// [out, out + n1 + n2) and returns the end; ties take the first range's element first. With
/// a parallel policy and random-access iterators the output is cut into blocks and each
/// block finds its sources by a binary search on the merge path (O(log n) comparisons), so
/// every block merges on its own; each split is searched once, so whatever `comp` answers the
/// output is a permutation of the inputs. The output must not overlap either input.
/// Exceptions: the first exception from `comp` or a copy propagates, and
/// `weft::invalid_comparator` where the splits come out of order; the output is then partly
/// written. Allocation: with a parallel policy, one split per 16 Ki output elements
/// (n / 16384 + 1 `std::size_t`), none below that. O(n) comparisons plus O(log n) per split.
template <execution_policy Policy, class It1, class It2, class Out, class Comp = std::less<>>
Out merge(Policy&&, It1 first1, It1 last1, It2 first2, It2 last2, Out out, Comp comp = {}) {
  static_assert(std::forward_iterator<It1> && std::forward_iterator<It2>,
                "weft::merge(policy, first1, last1, first2, last2, out): the inputs must be "
                "forward iterators");
  static_assert(std::is_invocable_r_v<bool, Comp&, std::iter_reference_t<It2>,
                                      std::iter_reference_t<It1>>,
                "weft::merge: comp must be callable as comp(b, a) on elements of the two ranges");
  detail::algo::check_writes<Out, std::iter_reference_t<It1>, std::iter_reference_t<It2>>();
  if constexpr (detail::algo::runs_parallel<Policy, It1, It2, Out>) {
    const std::size_t n1 = detail::algo::distance(first1, last1);
    const std::size_t n2 = detail::algo::distance(first2, last2);
    detail::algo::merge_par(first1, n1, first2, n2, out, comp);
    return detail::algo::advance(out, n1 + n2);
  } else {
    return std::merge(first1, last1, first2, last2, out, comp);
  }
}

/// Merges the sorted ranges [first, middle) and [middle, last) in place, stably. With a
/// parallel policy and random-access iterators: the elements move to a scratch buffer and
/// merge back in parallel blocks (merge path). Otherwise, on the calling thread: random-access
/// iterators over elements with noexcept moves move [first, middle) to a buffer and merge
/// forward into place; other iterators and element types merge by rotations (O(n log n)).
/// Whatever `comp` answers, and on unsorted halves, the merge stays inside the range.
/// Exceptions: the first exception from `comp` propagates, and [first, last) still holds
/// every element exactly once, provided moving an element does not throw. Allocation: n
/// elements in parallel, middle - first on the calling thread (rotations if that fails).
template <execution_policy Policy, class It, class Comp = std::less<>>
void inplace_merge(Policy&&, It first, It middle, It last, Comp comp = {}) {
  static_assert(std::bidirectional_iterator<It>,
                "weft::inplace_merge(policy, first, middle, last): the iterators must be "
                "bidirectional");
  static_assert(std::is_invocable_r_v<bool, Comp&, std::iter_reference_t<It>,
                                      std::iter_reference_t<It>>,
                "weft::inplace_merge: comp must be callable as comp(a, b) on two elements");
  if constexpr (detail::algo::runs_parallel<Policy, It> && detail::algo::nothrow_movable_v<It>) {
    const std::size_t m = detail::algo::distance(first, middle);
    const std::size_t n = detail::algo::distance(first, last);
    if (m == 0 || m == n) return;
    detail::algo::inplace_merge_par(first, m, n, comp);
  } else {
    detail::algo::inplace_merge_seq(first, middle, last, comp);
  }
}

}  // namespace weft
