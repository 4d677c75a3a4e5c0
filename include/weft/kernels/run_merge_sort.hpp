// SPDX-License-Identifier: MIT
// The sequential stable sort: an adaptive merge sort over the input's natural runs (the
// TimSort scheme of Rust's former slice::sort), with a buffer of n/2 elements.
// Why this kernel and how it measures: docs/decisions/0015-run-merge-sort.md
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/kernels/merge_path.hpp"
#include "weft/kernels/seq_sort.hpp"

namespace weft::detail::algo {

// Inputs this short are insertion-sorted whole.
inline constexpr std::size_t stable_run = 20;

// The length of the run that starts at a (n >= 1 elements): the longest non-descending
// prefix, or the longest strictly descending one, which is reversed in place (strictly, so
// that reversing keeps equal elements in order). Elements move only by swaps.
template <class It, class Comp>
std::size_t take_run(It a, std::size_t n, Comp& comp) {
  if (n < 2) return n;
  std::size_t k = 2;
  if (comp(a[1], a[0])) {
    while (k < n && comp(a[k], a[k - 1])) ++k;
    std::reverse(a, a + static_cast<std::iter_difference_t<It>>(k));
  } else {
    while (k < n && !comp(a[k], a[k - 1])) ++k;
  }
  return k;
}

// The minimum run for n elements: between 8 and 16, chosen as TimSort does so that
// n / min_run is a power of two or just under one, which keeps the merges balanced on random
// input. Shorter than TimSort's 16-32: an insertion sort to 32 costs ~22 comparisons an
// element on random strings against ~19 for 8-16 and for std::stable_sort.
constexpr std::size_t min_run_length(std::size_t n) noexcept {
  std::size_t r = 0;
  while (n >= 16) {
    r |= n & 1;
    n >>= 1;
  }
  return n + r;
}

// merge_heads backward: moves the greater tail (on a tie, the second input's) to --o until
// either input [f1, l1) or [f2, l2) is used up, moving the caller's l1, l2 and o.
template <class I1, class I2, class O, class Comp>
void merge_tails(I1 f1, I1& l1, I2 f2, I2& l2, O& o, Comp& comp) {
  if constexpr (std::contiguous_iterator<I1> && std::contiguous_iterator<I2> &&
                std::is_same_v<std::iter_reference_t<I1>, std::iter_reference_t<I2>>) {
    while (l1 != f1 && l2 != f2) {
      const bool first = static_cast<bool>(comp(*std::prev(l2), *std::prev(l1)));
      *--o = std::move(*pick(first, std::to_address(l1) - 1, std::to_address(l2) - 1));
      l1 -= first;
      l2 -= !first;
    }
  } else {
    while (l1 != f1 && l2 != f2) {
      if (comp(*std::prev(l2), *std::prev(l1)))
        *--o = std::move(*--l1);
      else
        *--o = std::move(*--l2);
    }
  }
}

// Merges the sorted runs [a, a + m) and [a + m, a + n) in place, the shorter of them moved
// to buf (at least min(m, n - m) assignable objects). The merge runs forward when the left run
// is in buf and backward when the right one is; either way the output never overtakes the
// unread part of the run left in place, and if the comparator throws, what is left in buf
// exactly fills the gap between the two, so the range again holds every element.
// With `whole` (buf holds at least n objects), a merge over contiguous storage of one element
// type moves both runs to buf and merges them back in independent parts (merge_move_parts):
// one more move of the longer run buys overlapping merge chains. If the comparator throws,
// the parts put their elements back into buf, which goes back whole.
template <class It, class B, class Comp>
void merge_runs(It a, std::size_t m, std::size_t n, B buf, Comp& comp, bool whole = false) {
  using D = std::iter_difference_t<It>;
  const It mid = a + static_cast<D>(m), last = a + static_cast<D>(n);
  if (!comp(*mid, *std::prev(mid))) return;  // already in order
  if constexpr (std::contiguous_iterator<It> && std::contiguous_iterator<B> &&
                std::is_same_v<std::iter_value_t<It>, std::iter_value_t<B>>) {
    if (whole && n >= parts_min_items) {
      auto* const b = std::to_address(buf);
      std::move(a, last, b);
      try {
        merge_move_parts(b, b + m, b + m, b + n, std::to_address(a), comp);
      } catch (...) {
        std::move(b, b + n, a);
        throw;
      }
      return;
    }
  }
  if (m <= n - m) {
    merge_from_buffer(buf, std::move(a, mid, buf), mid, last, a, comp);
  } else {
    B l2 = std::move(mid, last, buf);
    It l1 = mid, o = last;
    try {
      merge_tails(a, l1, buf, l2, o, comp);
    } catch (...) {
      std::move(buf, l2, l1);
      throw;
    }
    std::move(buf, l2, l1);
  }
}

// One run on the merge stack: [start, start + len).
struct sorted_run {
  std::size_t start, len;
};

// Which adjacent pair of the stack's runs to merge next (the index of the left one), or
// `none`. TimSort's rules with the fourth-run check that makes them hold (de Gouw et al.):
// every run is longer than the sum of the two above it, so the lengths grow at least like
// Fibonacci numbers and the stack stays far under 128 runs for any n. At the end, all merge.
inline constexpr std::size_t no_merge = ~std::size_t{0};

inline std::size_t run_to_merge(const sorted_run* r, std::size_t k, bool at_end) noexcept {
  if (k < 2) return no_merge;
  const bool merge = at_end || r[k - 2].len <= r[k - 1].len ||
                     (k >= 3 && r[k - 3].len <= r[k - 2].len + r[k - 1].len) ||
                     (k >= 4 && r[k - 4].len <= r[k - 3].len + r[k - 2].len);
  if (!merge) return no_merge;
  return k >= 3 && r[k - 3].len < r[k - 1].len ? k - 3 : k - 2;
}

// Stable sort of [a, a + n) (random access), with buf holding at least n / 2 assignable
// objects (moved-from elements, or bare storage of a trivial type; `whole_buffer`: at least
// n, and the merges take merge_runs' path in parts): natural runs (strictly
// descending ones reversed), each short one extended by insertion to min_run_length(n),
// merged by TimSort's stack rules. Sorted or reversed input costs n - 1 comparisons; any
// comparator leaves every access inside the range and buf (the run scans test the range's
// end, the merges stop at either run's end, the stack's rules look only at lengths), and on
// an exception the range holds every element (swaps, hole-guarded insertion, self-restoring
// merges), provided moves do not throw.
template <class It, class B, class Comp>
void run_merge_sort(It a, std::size_t n, B buf, Comp& comp, bool whole_buffer = false) {
  using D = std::iter_difference_t<It>;
  const auto at = [&](std::size_t i) { return a + static_cast<D>(i); };
  if (n <= stable_run) {
    insertion_sort(a, at(n), comp);
    return;
  }
  const std::size_t min_run = min_run_length(n);
  sorted_run runs[128];
  std::size_t k = 0, lo = 0;
  while (lo < n) {
    std::size_t len = take_run(at(lo), n - lo, comp);
    if (len < min_run) {
      const std::size_t end = std::min(n - lo, min_run);
      insertion_sort_tail(at(lo), at(lo + len), at(lo + end), comp);
      len = end;
    }
    runs[k++] = {lo, len};
    lo += len;
    for (std::size_t r; (r = run_to_merge(runs, k, lo == n)) != no_merge;) {
      merge_runs(at(runs[r].start), runs[r].len, runs[r].len + runs[r + 1].len, buf, comp,
                 whole_buffer);
      runs[r].len += runs[r + 1].len;
      for (std::size_t i = r + 1; i + 1 < k; ++i) runs[i] = runs[i + 1];
      --k;
    }
  }
}

// Stable sort of [first, last) on the calling thread: run_merge_sort with a buffer of n / 2
// elements, allocated before any element moves (std::bad_alloc leaves the range untouched).
// Trivial elements get bare storage; others a vector of elements moved in and back, so that
// the merges only ever move-assign onto live objects.
template <class It, class Comp>
void stable_sort_seq(It first, It last, Comp& comp) {
  const auto n = static_cast<std::size_t>(last - first);
  if (n <= stable_run) {
    insertion_sort(first, last, comp);
    return;
  }
  using T = std::iter_value_t<It>;
  const std::size_t half = n / 2;
  if constexpr (std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>) {
    const std::unique_ptr<T[]> b(new T[half]);
    run_merge_sort(first, n, b.get(), comp);
  } else {
    std::vector<T> b;
    b.reserve(half);
    for (It i = first; b.size() < half; ++i) {
      b.push_back(std::move(*i));
      *i = std::move(b.back());
    }
    run_merge_sort(first, n, b.begin(), comp);
  }
}

}  // namespace weft::detail::algo
