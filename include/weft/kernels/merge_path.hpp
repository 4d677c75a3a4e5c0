// SPDX-License-Identifier: MIT
// Merge-path partitioning: where the k-th output element of a stable merge comes from, found
// by a binary search on the diagonal k (Odeh, Green, Mwassi, Shmueli, Birk: "Merge Path").
// Any chunk [lo, hi) of the output then merges independently of every other chunk, so a
// merge is one pass of weft's blocks; the set operations can reuse the same split.
//
// The search is a binary search over [max(0, k - nb), min(k, na)], so it stays inside both
// inputs whatever the comparator answers. What a comparator that is no strict weak order (or
// an input it does not sort) can break is monotonicity: co_rank(k) <= co_rank(k') and
// k - co_rank(k) <= k' - co_rank(k') for k <= k'. Every split below checks that (a compare
// per chunk, never per element) before it reads between two splits, and throws
// weft::invalid_comparator where it fails (docs/algorithms.md#invalid-comparators).
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

#include "weft/algorithm/invalid_comparator.hpp"
#include "weft/kernels/blocks.hpp"

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

// The unit of output whose split one search finds: sort's merge levels and merge cut their
// output at multiples of it.
inline constexpr std::size_t merge_chunk = std::size_t(1) << 14;

/// Copies the stable merge of [a, a + na) and [b, b + nb) to out, chunks of the output in
/// parallel. The split at each chunk boundary is searched once and read by both chunks that
/// share it (two searches of one boundary could disagree under a comparator whose answers
/// change from call to call, and repeat or drop elements), so the output is a permutation of
/// the inputs whatever the comparator answers. Exceptions: the first one thrown by `comp` or
/// a copy propagates, and invalid_comparator where the splits are out of order; out is then
/// partly written.
template <class A, class B, class O, class Comp>
void merge_par(A a, std::size_t na, B b, std::size_t nb, O out, Comp& comp) {
  const std::size_t n = na + nb;
  const std::size_t chunks = n / merge_chunk + (n % merge_chunk != 0);
  if (chunks <= 1) {
    std::merge(a, algo::advance(a, na), b, algo::advance(b, nb), out, comp);
    return;
  }
  // split[c]: the elements of a in the first c * merge_chunk outputs.
  std::vector<std::size_t> split(chunks + 1);
  split[chunks] = na;
  for_blocks(chunks - 1, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t c = lo + 1; c <= hi; ++c) split[c] = co_rank(a, na, b, nb, c * merge_chunk, comp);
  });
  const auto out_at = [&](std::size_t c) { return std::min(n, c * merge_chunk); };
  for (std::size_t c = 0; c < chunks; ++c)
    if (!splits_ordered(out_at(c), split[c], out_at(c + 1), split[c + 1])) throw_invalid_comparator_cold();
  for_blocks(chunks, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t c = lo; c < hi; ++c) {
      const std::size_t olo = out_at(c), ohi = out_at(c + 1);
      std::merge(algo::advance(a, split[c]), algo::advance(a, split[c + 1]), algo::advance(b, olo - split[c]),
                 algo::advance(b, ohi - split[c + 1]), algo::advance(out, olo), comp);
    }
  });
}

}  // namespace weft::detail::algo
