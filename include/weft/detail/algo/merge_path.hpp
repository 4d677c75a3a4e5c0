// SPDX-License-Identifier: MIT
// Merge-path partitioning: where the k-th output element of a stable merge comes from, found
// by a binary search on the diagonal k (Odeh, Green, Mwassi, Shmueli, Birk: "Merge Path").
// Any block [lo, hi) of the output then merges independently of every other block, so a
// merge is one pass of weft's blocks; the set operations can reuse the same split.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>

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

/// Copies the stable merge of [a, a + na) and [b, b + nb) to out, blocks of the output in
/// parallel. Exceptions: the first one thrown by `comp` or a copy propagates; out is then
/// partly written.
template <class A, class B, class O, class Comp>
void merge_par(A a, std::size_t na, B b, std::size_t nb, O out, Comp& comp) {
  for_blocks(na + nb, [&](std::size_t lo, std::size_t hi) {
    const std::size_t ilo = co_rank(a, na, b, nb, lo, comp);
    const std::size_t ihi = co_rank(a, na, b, nb, hi, comp);
    std::merge(algo::advance(a, ilo), algo::advance(a, ihi), algo::advance(b, lo - ilo), algo::advance(b, hi - ihi),
               algo::advance(out, lo), comp);
  });
}

}  // namespace weft::detail::algo
