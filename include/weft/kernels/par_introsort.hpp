// SPDX-License-Identifier: MIT
// The parallel unstable comparison sort: seq_sort.hpp's introsort with the two sides of
// every large partition sorted by a join, and the partitions that come before there are
// enough sides to keep every thread busy split over the pool themselves.
//
// Why a quicksort and not tiles and merges: a merge level moves every element once more, and
// an unstable sort needs none of them. Sorting 20 M (u64, u64) pairs by a comparator on the
// first member (sort_pairs_cmp), two threads: 0.47x of std::sort with sorted tiles and
// merge levels, 0.36x this way (docs/algorithms.md#comparison-path, ADR 0019).
//
// Safety is the sequential kernel's: every element moves by a swap, so an exception (from
// the comparator, or one the pool raises) leaves a permutation; the join rethrows it after
// both sides stopped. A comparator's answer only decides which side an element goes to:
// the parallel partition counts each chunk's sides itself, so every index it computes lies
// inside the range whatever the comparator says.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/seq_sort.hpp"
#include "weft/join.hpp"
#include "weft/pool.hpp"

namespace weft::detail::algo {

// Ranges at least this long sort their two sides by a join; shorter ones are one sequential
// introsort (a sub-millisecond leaf: the join costs well under 1 % of it).
inline constexpr std::ptrdiff_t par_sort_leaf = std::ptrdiff_t(1) << 15;
// A partition is split over the pool only while its range has at least two threads' share
// of the pool and at least this many elements per chunk (tests reach it with `big` inputs).
inline constexpr std::ptrdiff_t par_partition_chunk = std::ptrdiff_t(1) << 13;

// [first, last) partitioned by left(x) over the pool: chunks partitioned in parallel, then
// the right elements that lie left of the final boundary swapped with the left elements that
// lie right of it, in parallel. Returns the boundary. `chunks` >= 2. Random: the answers are
// those of a pivot of the input (partition_blocks_by), not the equal-key pass
// (partition_chunk). The first partition of 20 M (u64, u64) pairs in four chunks, two
// threads: 41 ms with cyclic Lomuto chunks, 34 ms with block-partitioned ones (one thread
// partitions the whole range by blocks in 46 ms).
template <bool Random, class It, class Left>
It partition_par(It first, It last, const Left& left, std::size_t chunks) {
  const auto n = static_cast<std::size_t>(last - first);
  std::vector<std::size_t> mid(chunks);  // each chunk's boundary, as an offset from first
  const auto chunk_lo = [&](std::size_t c) { return n * c / chunks; };
  for_blocks(
      chunks,
      [&](std::size_t lo, std::size_t hi) {
        for (std::size_t c = lo; c < hi; ++c) {
          const It s = first + static_cast<std::ptrdiff_t>(chunk_lo(c));
          const It e = first + static_cast<std::ptrdiff_t>(chunk_lo(c + 1));
          It m;
          if constexpr (Random)
            m = partition_blocks_by(s, e, left);
          else
            m = partition_chunk(s, e, left);
          mid[c] = static_cast<std::size_t>(m - first);
        }
      },
      {.min_len = 1, .max_len = 1});
  std::size_t m = 0;  // the final boundary: the count of left elements
  for (std::size_t c = 0; c < chunks; ++c) m += mid[c] - chunk_lo(c);
  // Misplaced: each chunk's right part below m (wrong_right) and its left part from m on
  // (wrong_left), as lists of non-empty spans in position order. Both hold the same number
  // of elements: the right elements below m are the m positions less the left ones there.
  struct span_of {
    std::size_t lo, hi;
  };
  std::vector<span_of> wrong_right, wrong_left;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t s = chunk_lo(c), e = chunk_lo(c + 1);
    if (mid[c] < std::min(e, m)) wrong_right.push_back({mid[c], std::min(e, m)});
    if (std::max(s, m) < mid[c]) wrong_left.push_back({std::max(s, m), mid[c]});
  }
  std::size_t count = 0;
  for (const span_of& r : wrong_right) count += r.hi - r.lo;
  if (count == 0) return first + static_cast<std::ptrdiff_t>(m);
  // The k-th misplaced element of a list: its span and the offset inside it.
  const auto locate = [](const std::vector<span_of>& spans, std::size_t k) {
    std::size_t i = 0;
    while (k >= spans[i].hi - spans[i].lo) {
      k -= spans[i].hi - spans[i].lo;
      ++i;
    }
    return std::pair{i, spans[i].lo + k};
  };
  for_blocks(count, [&](std::size_t lo, std::size_t hi) {
    auto [ri, rp] = locate(wrong_right, lo);
    auto [li, lp] = locate(wrong_left, lo);
    for (std::size_t k = lo; k < hi; ++k) {
      if (rp == wrong_right[ri].hi) rp = wrong_right[++ri].lo;
      if (lp == wrong_left[li].hi) lp = wrong_left[++li].lo;
      std::iter_swap(first + static_cast<std::ptrdiff_t>(rp++),
                     first + static_cast<std::ptrdiff_t>(lp++));
    }
  });
  return first + static_cast<std::ptrdiff_t>(m);
}

// introsort_loop (seq_sort.hpp) with the sides of a range of par_sort_leaf or more sorted by
// a join, and its partitions split over the pool while `share` (the threads this range may
// keep busy) is 2 or more. Same pivots, same equal-key pass, same heapsort budget.
template <class It, class Comp>
void introsort_par_loop(It first, It last, Comp& comp, int budget, bool leftmost,
                        std::size_t share) {
  while (last - first >= par_sort_leaf) {
    const std::ptrdiff_t n = last - first;
    const std::size_t chunks = std::min<std::size_t>(
        2 * share, static_cast<std::size_t>(n / par_partition_chunk));
    const bool split = share >= 2 && chunks >= 2;
    choose_pivot(first, last, comp);
    if (!leftmost && !comp(*std::prev(first), *first)) {  // equal to an enclosing pivot
      auto&& pivot = *first;  // comp may take non-const references, as std::sort allows
      const auto not_greater = [&](auto&& x) { return !comp(pivot, x); };
      first = split ? partition_par<false>(std::next(first), last, not_greater, chunks)
                    : partition_chunk(std::next(first), last, not_greater);
      continue;
    }
    It j;
    if (split) {
      auto&& pivot = *first;
      const It m = partition_par<true>(std::next(first), last,
                                       [&](auto&& x) { return comp(x, pivot); }, chunks);
      j = std::prev(m);
      if (j != first) std::iter_swap(first, j);
    } else {
      j = partition_for_sort(first, last, comp);
    }
    const std::ptrdiff_t l = j - first, r = last - j - 1;
    if (std::min(l, r) < n / 8 && --budget <= 0) {
      heap_sort(first, last, comp);
      return;
    }
    // Each side keeps busy its share of the threads, in proportion to its length.
    const std::size_t left_share =
        share * static_cast<std::size_t>(l) / static_cast<std::size_t>(n);
    const std::size_t right = std::max<std::size_t>(share - left_share, 1);
    const std::size_t left = std::max<std::size_t>(left_share, 1);
    weft::join([&] { introsort_par_loop(first, j, comp, budget, leftmost, left); },
               [&] { introsort_par_loop(std::next(j), last, comp, budget, false, right); });
    return;
  }
  introsort_loop(first, last, comp, budget, leftmost);
}

template <class It, class Comp>
void introsort_par(It first, It last, Comp& comp) {
  const auto n = static_cast<std::size_t>(last - first);
  introsort_par_loop(first, last, comp, 2 * static_cast<int>(std::bit_width(n)), true,
                     weft::num_threads());
}

}  // namespace weft::detail::algo
