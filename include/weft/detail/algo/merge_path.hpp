// SPDX-License-Identifier: MIT
// Merge-path partitioning: where the k-th output element of a stable merge comes from, found
// by a binary search on the diagonal k (Odeh, Green, Mwassi, Shmueli, Birk: "Merge Path").
// Any block [lo, hi) of the output then merges independently of every other block, so a
// merge is one pass of weft's blocks; the set operations can reuse the same split.
//
// The search is a binary search over [max(0, k - nb), min(k, na)], so it stays inside both
// inputs whatever the comparator answers. What a comparator that is no strict weak order (or
// an input it does not sort) can break is monotonicity: co_rank(k) <= co_rank(k') and
// k - co_rank(k) <= k' - co_rank(k') for k <= k'. Every split below checks that (a compare
// per block, never per element) before it reads between two splits, and throws
// weft::invalid_comparator where it fails (docs/algorithms.md#invalid-comparators).
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>

#include "weft/algorithm/invalid_comparator.hpp"
#include "weft/detail/algo/blocks.hpp"

namespace weft::detail::algo {

/// The number i of elements of [a, a + na) among the first k outputs of the stable merge of
/// a and b (ties take a first); the other k - i come from b. O(log min(k, na)) comparisons.
template <class A, class B, class Comp>
std::size_t co_rank(A a, std::size_t na, B b, std::size_t nb, std::size_t k, Comp& comp) {
  std::size_t lo = k > nb ? k - nb : 0, hi = std::min(k, na);
  while (lo < hi) {
    const std::size_t i = lo + (hi - lo) / 2, j = k - i;
    // a[i] precedes b[j - 1] in the merge: more of a belongs in the first k.
    if (j > 0 && !comp(*algo::advance(b, j - 1), *algo::advance(a, i)))
      lo = i + 1;
    else
      hi = i;
  }
  return lo;
}

// Whether a range of output [lo, hi) that starts at (ilo, lo - ilo) of the inputs can end
// at (ihi, hi - ihi): neither input's position goes back.
inline bool splits_ordered(std::size_t lo, std::size_t ilo, std::size_t hi, std::size_t ihi) {
  return ilo <= ihi && lo - ilo <= hi - ihi;
}

/// Copies the stable merge of [a, a + na) and [b, b + nb) to out, blocks of the output in
/// parallel. Exceptions: the first one thrown by `comp` or a copy propagates, and
/// invalid_comparator where a block's splits are out of order; out is then partly written.
template <class A, class B, class O, class Comp>
void merge_par(A a, std::size_t na, B b, std::size_t nb, O out, Comp& comp) {
  for_blocks(na + nb, [&](std::size_t lo, std::size_t hi) {
    const std::size_t ilo = co_rank(a, na, b, nb, lo, comp);
    const std::size_t ihi = co_rank(a, na, b, nb, hi, comp);
    if (!splits_ordered(lo, ilo, hi, ihi)) throw_invalid_comparator_cold();
    std::merge(algo::advance(a, ilo), algo::advance(a, ihi), algo::advance(b, lo - ilo), algo::advance(b, hi - ihi),
               algo::advance(out, lo), comp);
  });
}

}  // namespace weft::detail::algo
