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
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/algorithm/invalid_comparator.hpp"
#include "weft/kernels/blocks.hpp"
#include "weft/kernels/seq_sort.hpp"

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

// merge_parts_to splits a merge into this many independent merges, and does so only for
// merges of at least parts_min_items elements (below that the splits' searches cost more
// than the overlap saves). Four chains hide the load-compare-advance latency of one
// (docs/decisions/0021-merges-in-parts.md).
inline constexpr std::size_t merge_parts = 4;
inline constexpr std::size_t parts_min_items = 64;

// One step of a stable merge over contiguous storage: merge_heads' step, moving the element
// (Move) or copying it.
template <bool Move, class In, class T, class Comp>
WEFT_INLINE void merge_step(In*& f1, In*& f2, T*& o, Comp& comp) {
  const bool second = static_cast<bool>(comp(*f2, *f1));
  if constexpr (Move)
    *o = std::move(*pick(second, f2, f1));
  else
    *o = *pick(second, f2, f1);
  f2 += second;
  f1 += !second;
  ++o;
}

// The stable merge of [f1, l1) and [f2, l2) (contiguous storage, out apart from both inputs)
// as merge_parts independent merges, one for each quarter of the output, split by co_rank and
// run step by step side by side: a single branchless merge serialises its steps (each
// step's loads wait for the previous step's advance), the parts share nothing, so the core
// overlaps their chains. The splits are clamped to be monotone, so whatever the comparator
// answers the parts partition both inputs and the output exactly once (a comparator that is
// no strict weak order gets a permutation, as from every merge). Move: the elements move
// (merge_move), else they are copied (std::merge); In is T or const T, as the caller's
// iterators give them to the comparator. If the comparator throws, a moving merge's parts
// put the elements they moved back into their holes, as merge_move does; a copying one leaves
// out partly written, as std::merge does.
template <bool Move, class In, class T, class Comp>
void merge_parts_to(In* f1, In* l1, In* f2, In* l2, T* out, Comp& comp) {
  static_assert(std::is_same_v<std::remove_const_t<In>, T>);
  constexpr std::size_t P = merge_parts;
  const std::size_t n1 = static_cast<std::size_t>(l1 - f1), n2 = static_cast<std::size_t>(l2 - f2);
  const std::size_t n = n1 + n2;
  // Part p: [f1 + i[p], f1 + i[p + 1]) and [f2 + k[p] - i[p], f2 + k[p + 1] - i[p + 1]) to
  // [out + k[p], out + k[p + 1]).
  std::size_t k[P + 1], i[P + 1];
  k[0] = i[0] = 0;
  k[P] = n;
  i[P] = n1;
  for (std::size_t p = 1; p < P; ++p) {
    k[p] = n * p / P;
    const std::size_t step = k[p] - k[p - 1];
    const std::size_t lo = std::max(i[p - 1], k[p] > n2 ? k[p] - n2 : 0);
    const std::size_t hi = std::min(i[p - 1] + step, n1);
    i[p] = std::clamp(co_rank(f1, n1, f2, n2, k[p], comp), lo, hi);
  }
  In *a[P], *ae[P], *b[P], *be[P];
  T* o[P];
  for (std::size_t p = 0; p < P; ++p) {
    a[p] = f1 + i[p];
    ae[p] = f1 + i[p + 1];
    b[p] = f2 + (k[p] - i[p]);
    be[p] = f2 + (k[p + 1] - i[p + 1]);
    o[p] = out + k[p];
  }
  try {
    // Each step takes one element from one input of each part: `steps` steps, the fewest
    // left in any input, need no end test.
    for (;;) {
      std::ptrdiff_t steps = ae[0] - a[0];
      for (std::size_t p = 0; p < P; ++p) steps = std::min({steps, ae[p] - a[p], be[p] - b[p]});
      if (steps == 0) break;
      for (; steps > 0; --steps)
        for (std::size_t p = 0; p < P; ++p) merge_step<Move>(a[p], b[p], o[p], comp);
    }
    for (std::size_t p = 0; p < P; ++p) {
      if constexpr (Move) {
        merge_heads(a[p], ae[p], b[p], be[p], o[p], comp);
      } else {
        while (a[p] != ae[p] && b[p] != be[p]) merge_step<false>(a[p], b[p], o[p], comp);
      }
    }
  } catch (...) {
    if constexpr (Move) {
      for (std::size_t p = 0; p < P; ++p) {
        T* r = out + k[p];
        for (T* h = f1 + i[p]; h != a[p]; ++h, ++r) *h = std::move(*r);
        for (T* h = f2 + (k[p] - i[p]); h != b[p]; ++h, ++r) *h = std::move(*r);
      }
    }
    throw;
  }
  for (std::size_t p = 0; p < P; ++p) {
    if constexpr (Move) {
      o[p] = std::move(a[p], ae[p], o[p]);
      std::move(b[p], be[p], o[p]);
    } else {
      o[p] = std::copy(a[p], ae[p], o[p]);
      std::copy(b[p], be[p], o[p]);
    }
  }
}

// merge_move over contiguous storage, in parts (merge_parts_to).
template <class T, class Comp>
void merge_move_parts(T* f1, T* l1, T* f2, T* l2, T* out, Comp& comp) {
  merge_parts_to<true>(f1, l1, f2, l2, out, comp);
}

// The stable merge of [a, a_end) and [b, b_end) to out, moving the elements (Move: as
// merge_move, for the sorts' merge levels) or copying them (as std::merge, for merge): in
// parts (merge_parts_to) over contiguous storage of one element type when at least
// parts_min_items long, else by merge_move or std::merge.
template <bool Move, class A, class B, class O, class Comp>
void merge_to(A a, A a_end, B b, B b_end, O out, Comp& comp) {
  if constexpr (std::contiguous_iterator<A> && std::contiguous_iterator<B> &&
                std::contiguous_iterator<O> &&
                std::is_same_v<std::iter_reference_t<A>, std::iter_reference_t<B>> &&
                std::is_same_v<std::iter_value_t<A>, std::iter_value_t<O>> &&
                std::is_lvalue_reference_v<std::iter_reference_t<O>>) {
    if (static_cast<std::size_t>((a_end - a) + (b_end - b)) >= parts_min_items) {
      merge_parts_to<Move>(std::to_address(a), std::to_address(a_end), std::to_address(b),
                           std::to_address(b_end), std::to_address(out), comp);
      return;
    }
  }
  if constexpr (Move)
    merge_move(a, a_end, b, b_end, out, comp);
  else
    std::merge(a, a_end, b, b_end, out, comp);
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
    merge_to<false>(a, algo::advance(a, na), b, algo::advance(b, nb), out, comp);
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
      merge_to<false>(algo::advance(a, split[c]), algo::advance(a, split[c + 1]), algo::advance(b, olo - split[c]),
                      algo::advance(b, ohi - split[c + 1]), algo::advance(out, olo), comp);
    }
  });
}

}  // namespace weft::detail::algo
