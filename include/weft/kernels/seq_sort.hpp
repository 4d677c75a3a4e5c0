// SPDX-License-Identifier: MIT
// The sequential comparison kernels under weft's sorts, written so that an exception from the
// comparator leaves the range a permutation of its input: every element moves by a swap, by a
// merge that moves its output back on unwind, through a hole whose guard refills it, or (a
// leaf of trivially copyable elements) between buffers, with a copy of the leaf to put back.
// (std::sort's insertion step holds an element in a local and loses it if the comparator
// throws). That guarantee assumes moves do not throw; elements whose moves may throw are
// insertion-sorted by swaps instead of through a hole, and then keep the guarantee as long
// as no move actually throws.
//
// Every loop is bounded by the range itself, never by a sentinel that only a strict weak
// order guarantees (libstdc++'s std::sort and std::nth_element partition with unguarded
// scans): the partition scans test i <= j, the insertion sort tests its hole against first,
// the heap sifts test the heap's size, merge_move stops at either input's end, a leaf's
// merges take half their length from each end. So a comparator that is no strict weak order
// gives an unspecified order in O(n log n) comparisons (bad splits end in heapsort) and never
// an access outside the range.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstddef>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/algorithm/invalid_comparator.hpp"

namespace weft::detail::algo {

template <class It>
inline constexpr bool nothrow_movable_v =
    std::is_nothrow_move_constructible_v<std::iter_value_t<It>> &&
    std::is_nothrow_move_assignable_v<std::iter_value_t<It>> &&
    std::is_nothrow_swappable_v<std::iter_value_t<It>>;

// Holds the element lifted out of `hole`; whatever happens, it goes back into the hole,
// which the insertion loop moves as it shifts elements right.
template <class It>
struct hole_guard {
  std::iter_value_t<It> value;
  It hole;
  explicit hole_guard(It at) : value(std::move(*at)), hole(at) {}
  hole_guard(const hole_guard&) = delete;
  hole_guard& operator=(const hole_guard&) = delete;
  ~hole_guard() { *hole = std::move(value); }
};

// Insertion-sorts [first, last) whose prefix [first, mid) is sorted (mid > first). Stable
// (strict comparisons only).
template <class It, class Comp>
void insertion_sort_tail(It first, It mid, It last, Comp& comp) {
  if constexpr (!nothrow_movable_v<It>) {
    // The hole's guard would move in its destructor, where a throwing move terminates.
    for (It i = mid; i != last; ++i)
      for (It j = i; j != first && comp(*j, *std::prev(j)); --j) std::iter_swap(j, std::prev(j));
  } else {
    for (It i = mid; i != last; ++i) {
      if (!comp(*i, *std::prev(i))) continue;
      hole_guard<It> g(i);
      do {
        *g.hole = std::move(*std::prev(g.hole));
        --g.hole;
      } while (g.hole != first && comp(g.value, *std::prev(g.hole)));
    }
  }
}

template <class It, class Comp>
void insertion_sort(It first, It last, Comp& comp) {
  if (first != last) insertion_sort_tail(first, std::next(first), last, comp);
}

template <class It, class Comp>
void sift_down(It first, std::ptrdiff_t n, std::ptrdiff_t i, Comp& comp) {
  while (true) {
    std::ptrdiff_t c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && comp(first[c], first[c + 1])) ++c;
    if (!comp(first[i], first[c])) return;
    std::iter_swap(first + i, first + c);
    i = c;
  }
}

// The introsort fallback: O(n log n) whatever the input.
template <class It, class Comp>
void heap_sort(It first, It last, Comp& comp) {
  const std::ptrdiff_t n = last - first;
  for (std::ptrdiff_t i = n / 2; i-- > 0;) sift_down(first, n, i, comp);
  for (std::ptrdiff_t e = n - 1; e > 0; --e) {
    std::iter_swap(first, first + e);
    sift_down(first, e, 0, comp);
  }
}

template <class It, class Comp>
void sort3(It a, It b, It c, Comp& comp) {
  if (comp(*b, *a)) std::iter_swap(a, b);
  if (comp(*c, *b)) std::iter_swap(b, c);
  if (comp(*b, *a)) std::iter_swap(a, b);
}

// Ranges longer than this take the median of pivot_sample evenly spaced elements as their
// pivot. A ninther splits a large range about 35/65 on average, and each point of imbalance
// is work on the larger side, level after level; 63 comparisons cost nothing next to a
// partition of 65,536 elements. 20 M (u64, u64) pairs by a comparator, one thread: 869 ms
// against 895-905 ms with the ninther at every size; on patterned input a ninther picks
// pivots far from the median (4 M pairs in sawtooth order: 127 -> 86 ms, together with the
// unrolled block partition; ADR 0023).
inline constexpr std::ptrdiff_t pivot_sample_min = 65536;
inline constexpr std::ptrdiff_t pivot_sample = 63;

// The pivot, moved to *first: the median of 3, of a ninther above 128 elements, of
// pivot_sample elements above pivot_sample_min. Elements move by swaps only, and the
// sample's insertion sort is bounded by the sample, whatever the comparator answers.
template <class It, class Comp>
void choose_pivot(It first, It last, Comp& comp) {
  const std::ptrdiff_t n = last - first;
  const It mid = first + n / 2;
  if (n > pivot_sample_min) {
    It at[pivot_sample];
    for (std::ptrdiff_t i = 0; i < pivot_sample; ++i)
      at[i] = first + 1 + i * (n - 2) / (pivot_sample - 1);  // first + 1 .. last - 1
    for (std::ptrdiff_t i = 1; i < pivot_sample; ++i)
      for (std::ptrdiff_t j = i; j > 0 && comp(*at[j], *at[j - 1]); --j)
        std::iter_swap(at[j], at[j - 1]);
    std::iter_swap(first, at[pivot_sample / 2]);
    return;
  }
  if (n > 128) {
    const std::ptrdiff_t s = n / 8;
    sort3(first + 1, mid - s, last - 2, comp);
    sort3(first + 2, mid + s, last - 3, comp);
    sort3(first + 3, mid, last - 4, comp);
    sort3(mid - s, mid, mid + s, comp);
  } else {
    sort3(first + 1, mid, last - 1, comp);
  }
  std::iter_swap(first, mid);
}

// Partitions (first, last) around the pivot at *first (a Hoare partition that stops on
// equal keys) and puts the pivot at its place, which it returns: under a strict weak order
// nothing left of it compares greater and nothing right of it less. Both scans test i <= j.
template <class It, class Comp>
It partition_at_pivot(It first, It last, Comp& comp) {
  It i = std::next(first), j = std::prev(last);
  while (true) {
    while (i <= j && comp(*i, *first)) ++i;
    while (i <= j && comp(*first, *j)) --j;
    if (i >= j) break;
    std::iter_swap(i, j);
    ++i;
    --j;
  }
  std::iter_swap(first, j);
  return j;
}

// Elements that the partitions move by plain copies, without a branch on the comparator's
// answer: small, trivially copy-constructible and destructible, copy-assigned without
// exceptions, in contiguous storage.
template <class It>
inline constexpr bool copied_without_branch_v = [] {
  using T = std::iter_value_t<It>;
  return std::contiguous_iterator<It> && sizeof(T) <= 16 && std::is_trivially_copy_constructible_v<T> &&
         std::is_trivially_destructible_v<T> && std::is_nothrow_copy_assignable_v<T>;
}();

// Moves the elements of [s, e) for which left(x) holds before the others, keeping the
// others' relative positions unspecified; returns the end of the left part. A swap per
// element without a branch on the answer for cheap elements (a random pivot's branch is
// mispredicted every other element), a swap per left element otherwise. The introsort's
// equal-key pass takes it rather than partition_cyclic: there the answers run in long
// predictable stretches (all equal, or few), where swapping only the left elements of a
// larger type costs less than copying every element.
template <class It, class Left>
It partition_chunk(It s, It e, const Left& left) {
  using T = std::iter_value_t<It>;
  It k = s;
  if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= 16) {
    for (It i = s; i != e; ++i) {
      const bool l = left(*i);
      std::iter_swap(i, k);  // [s, k) left, [k, i] right whatever l was
      k += l;
    }
  } else {
    for (It i = s; i != e; ++i)
      if (left(*i)) {
        if (i != k) std::iter_swap(i, k);
        ++k;
      }
  }
  return k;
}

// partition_chunk for answers that are random, around a pivot of the input. For
// copied_without_branch_v elements: Orson Peters' cyclic branchless Lomuto partition. It
// keeps one gap instead of swapping, so each element costs two copies and no branch on the
// answer; the first element waits in a local until the end, and if `left` throws it fills
// the gap, so the range keeps every element. Every access stays inside [s, e). Otherwise
// partition_chunk.
template <class It, class Left>
It partition_cyclic(It s, It e, const Left& left) {
  using T = std::iter_value_t<It>;
  if constexpr (copied_without_branch_v<It>) {
    if (s == e) return s;
    T* const base = std::to_address(s);
    T* const end = std::to_address(e);
    struct gap_guard {
      T* pos;
      T value;
      ~gap_guard() { *pos = value; }
    };
    T* k = base;  // [base, k) left
    {
      gap_guard gap{base, *base};
      for (T* i = base + 1; i != end; ++i) {
        const bool l = static_cast<bool>(left(*i));
        *gap.pos = *k;
        *k = *i;
        gap.pos = i;
        k += l;
      }
      const bool l = static_cast<bool>(left(gap.value));
      *gap.pos = *k;
      gap.pos = k;  // the guard puts the waiting element here
      k += l;
    }
    return s + (k - base);
  } else {
    return partition_chunk(s, e, left);
  }
}

// Moves the elements of [s, e) for which left(x) holds before the others and returns the
// end of the left part: the block partition of BlockQuicksort (Edelkamp, Weiss) as pdqsort
// does it. Each block of 64 on either side records, without a branch per element, which of
// its elements are on the wrong side; the recorded ones trade places in pairs. An answer
// only picks offsets inside its block, so any predicate leaves every index inside the
// range; `left` is called only while nothing moves, so if it throws, the range keeps every
// element. The last two blocks or less go through partition_cyclic. For
// copied_without_branch_v elements, where a branch per element is mispredicted half the
// time on random answers; others go through partition_cyclic whole.
template <class It, class Left>
It partition_blocks_by(It s, It e, const Left& left) {
  if constexpr (copied_without_branch_v<It>) {
    using T = std::iter_value_t<It>;
    constexpr std::ptrdiff_t block = 64;
    // The recorded positions are byte offsets from the block's start, so the exchange loop
    // adds them to it with no scaling or negation: 20 M (u64, u64) pairs, one thread,
    // 667-689 ms against 691-728 with element indices (ADR 0024).
    std::uint16_t off_l[block], off_r[block];
    const auto at = [](T* base, std::uint16_t offset) {
      return reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(base) + offset);
    };
    It l = s, r = e;  // [l, r) is unpartitioned
    std::ptrdiff_t num_l = 0, num_r = 0, start_l = 0, start_r = 0;
    while (r - l > 2 * block) {
      T* const lb = std::to_address(l);          // the left block: [l, l + block)
      T* const rb = std::to_address(r) - block;  // the right block: [r - block, r)
      // The classification loops are unrolled: one iteration is a load, a comparison, a
      // store of the offset and an add, and the loop's own compare and branch cost as much
      // again.
      if (num_l == 0) {
        start_l = 0;
#pragma GCC unroll 8
        for (std::ptrdiff_t i = 0; i < block; ++i) {
          off_l[num_l] = static_cast<std::uint16_t>(i * static_cast<std::ptrdiff_t>(sizeof(T)));
          num_l += !static_cast<bool>(left(lb[i]));
        }
      }
      if (num_r == 0) {
        start_r = 0;
#pragma GCC unroll 8
        for (std::ptrdiff_t i = block - 1; i >= 0; --i) {
          off_r[num_r] = static_cast<std::uint16_t>(i * static_cast<std::ptrdiff_t>(sizeof(T)));
          num_r += static_cast<bool>(left(rb[i]));
        }
      }
      const std::ptrdiff_t num = std::min(num_l, num_r);
      if (num > 0) {
        // The recorded pairs exchanged along one cycle through a temporary: two copies a
        // pair instead of a swap's three. Copies of copied_without_branch_v elements cannot
        // throw, and `left` is not called here.
        const std::uint16_t* const ol = off_l + start_l;
        const std::uint16_t* const orr = off_r + start_r;
        const T held = *at(lb, ol[0]);
        *at(lb, ol[0]) = *at(rb, orr[0]);
        for (std::ptrdiff_t k = 1; k < num; ++k) {
          *at(rb, orr[k - 1]) = *at(lb, ol[k]);
          *at(lb, ol[k]) = *at(rb, orr[k]);
        }
        *at(rb, orr[num - 1]) = held;
      }
      num_l -= num;
      num_r -= num;
      start_l += num;
      start_r += num;
      if (num_l == 0) l += block;
      if (num_r == 0) r -= block;
    }
    // [s, l) is left and [r, e) is not, but for the elements still recorded in a block left
    // unfinished: partition the blocks and the rest, [l, r), once more.
    return partition_cyclic(l, r, left);
  } else {
    return partition_cyclic(s, e, left);
  }
}

// Partitions (first, last) around the pivot at *first into the elements that precede it
// and the rest, by partition_blocks_by (Blocks) or partition_cyclic, and puts the pivot
// between them, at the position it returns. Equal keys go right.
template <bool Blocks, class It, class Comp>
It partition_around(It first, It last, Comp& comp) {
  auto&& pivot = *first;  // comp may take non-const references, as std::sort allows
  const auto left = [&](auto&& x) { return static_cast<bool>(comp(x, pivot)); };
  It m;
  if constexpr (Blocks)
    m = partition_blocks_by(std::next(first), last, left);
  else
    m = partition_cyclic(std::next(first), last, left);
  std::iter_swap(first, std::prev(m));
  return std::prev(m);
}

// Which partition the introsort uses for [first, last): for copied_without_branch_v
// elements, the block partition above 256 elements and the cyclic Lomuto partition below
// (20 M (u64, u64) pairs by a comparator on the first, one thread: 1.10 s with the Hoare
// partition below 256 elements, 0.82 s with Lomuto, 0.83 s with Lomuto at every size);
// otherwise the Hoare partition, which moves only misplaced elements.
template <class It, class Comp>
It partition_for_sort(It first, It last, Comp& comp) {
  if constexpr (copied_without_branch_v<It>) {
    return last - first > 256 ? partition_around<true>(first, last, comp)
                              : partition_around<false>(first, last, comp);
  }
  return partition_at_pivot(first, last, comp);
}

// `yes ? a : b` without a branch: compilers turn a plain conditional between two elements'
// addresses into a jump, which a random merge mispredicts every other element.
template <class T>
T* pick(bool yes, T* a, T* b) noexcept {
  const auto mask = std::uintptr_t{0} - static_cast<std::uintptr_t>(yes);
  return reinterpret_cast<T*>((reinterpret_cast<std::uintptr_t>(a) & mask) |
                              (reinterpret_cast<std::uintptr_t>(b) & ~mask));
}

// ---------------------------------------------------------------------------------------
// The leaves' sort. An insertion sort mispredicts the end of almost every element's shift on
// random input: 12 ns an element on leaves of 8 to 24 (u64, u64) pairs, most of it those
// mispredictions. For copied_without_branch_v elements the leaves are sorted without a
// branch on the comparator's answers instead (6.6 ns an element): halves down to four
// elements or fewer, each sorted by a network of comparisons whose answers pick pointers,
// merged back from both ends at once (two independent chains of dependent loads, one
// element each per step) between the leaf and a scratch copy. 20 M pairs by a comparator,
// one thread: 795-824 -> 694-746 ms (ADR 0024).
//
// Any comparator: each merge takes floor(n / 2) steps from either end, so with the left
// half floor(n / 2) long every read stays inside the two halves whatever the answers; a
// comparator that is no strict weak order shows in the merge's ends not meeting, and then
// the leaf gets its elements back from a copy taken first and is insertion-sorted. A
// comparator that throws also gets the copy back first.
// ---------------------------------------------------------------------------------------

// Ranges this short are leaves: sorted by leaf_sort.
inline constexpr std::ptrdiff_t leaf_cutoff = 24;

// Sorts s[0, m), m <= 4, into d[0, m) (d may be s): a network on pointers, the elements
// copied once at the end. `inline` here and on the merge below is GCC's hint to inline them
// into the recursion that calls each from two places (20 M pairs: 725 -> 700 ms).
template <class T, class Comp>
inline void sort_network(T* s, std::size_t m, T* d, Comp& comp) {
  const auto less = [&](T* x, T* y) { return static_cast<bool>(comp(*x, *y)); };
  if (m == 4) {
    const bool c01 = less(s + 1, s), c23 = less(s + 3, s + 2);
    T* const a = pick(c01, s + 1, s);  // min of 0, 1
    T* const b = pick(c01, s, s + 1);  // max of 0, 1
    T* const c = pick(c23, s + 3, s + 2);
    T* const e = pick(c23, s + 2, s + 3);
    const bool lo_c = less(c, a), hi_b = less(e, b);
    T* const lo = pick(lo_c, c, a);
    T* const hi = pick(hi_b, b, e);
    T* const x = pick(lo_c, a, c);  // the two middle ones, in either order
    T* const y = pick(hi_b, e, b);
    const bool yx = less(y, x);
    const T t0 = *lo, t1 = *pick(yx, y, x), t2 = *pick(yx, x, y), t3 = *hi;
    d[0] = t0;
    d[1] = t1;
    d[2] = t2;
    d[3] = t3;
  } else if (m == 3) {
    const bool c01 = less(s + 1, s);
    T* const a = pick(c01, s + 1, s);
    T* const b = pick(c01, s, s + 1);
    const bool c2b = less(s + 2, b);
    T* const hi = pick(c2b, b, s + 2);
    T* const x = pick(c2b, s + 2, b);
    const bool xa = less(x, a);
    const T t0 = *pick(xa, x, a), t1 = *pick(xa, a, x), t2 = *hi;
    d[0] = t0;
    d[1] = t1;
    d[2] = t2;
  } else if (m == 2) {
    const bool c01 = less(s + 1, s);
    const T t0 = *pick(c01, s + 1, s), t1 = *pick(c01, s, s + 1);
    d[0] = t0;
    d[1] = t1;
  } else if (m == 1) {
    d[0] = s[0];
  }
}

// Merges the sorted a[0, la) and b[0, lb) into out from both ends at once, without a branch
// on the answers. Requires la == (la + lb) / 2: then every read stays inside a[0, la) and
// b[0, lb) whatever the comparator answers. Returns whether the ends met, which a strict
// weak order guarantees; otherwise out may hold some elements twice and miss others.
template <class T, class Comp>
inline bool merge_from_both_ends(T* a, std::size_t la, T* b, std::size_t lb, T* out,
                                 Comp& comp) {
  const std::size_t n = la + lb;
  T* lf = a;
  T* rf = b;
  T* lr = a + la - 1;
  T* rr = b + lb - 1;
  T* of = out;
  T* orr = out + n - 1;
  for (std::size_t i = 0; i < n / 2; ++i) {
    const bool take_r = static_cast<bool>(comp(*rf, *lf));
    *of++ = *pick(take_r, rf, lf);
    rf += take_r;
    lf += !take_r;
    const bool take_l = static_cast<bool>(comp(*rr, *lr));
    *orr-- = *pick(take_l, lr, rr);
    lr -= take_l;
    rr -= !take_l;
  }
  if (n % 2 != 0) {
    const bool left_remains = lf <= lr;
    *of = *pick(left_remains, lf, rf);
    lf += left_remains;
    rf += !left_remains;
  }
  return lf == lr + 1 && rf == rr + 1;
}

// Sorts v[0, m) in place through other[0, m) (InPlace), or into other[0, m) through v. It
// halves the range (the left half the shorter, as merge_from_both_ends requires), sorts
// each half the other way round, so that the halves land in the buffer the merge reads,
// and merges them into the destination. Returns whether every merge's ends met.
template <bool InPlace, class T, class Comp>
bool leaf_sort_halves(T* v, std::size_t m, T* other, Comp& comp) {
  T* const dst = InPlace ? v : other;
  if (m <= 4) {
    sort_network(v, m, dst, comp);
    return true;
  }
  const std::size_t h = m / 2;
  bool ok = leaf_sort_halves<!InPlace>(v, h, other, comp);
  ok &= leaf_sort_halves<!InPlace>(v + h, m - h, other + h, comp);
  T* const src = InPlace ? other : v;
  return ok & merge_from_both_ends(src, h, src + h, m - h, dst, comp);
}

// Sorts a leaf [first, last) of at most leaf_cutoff elements (see the block comment above).
template <class It, class Comp>
void leaf_sort(It first, It last, Comp& comp) {
  if constexpr (copied_without_branch_v<It>) {
    using T = std::iter_value_t<It>;
    const auto n = static_cast<std::size_t>(last - first);
    if (n < 8 || n > static_cast<std::size_t>(leaf_cutoff)) {
      insertion_sort(first, last, comp);
      return;
    }
    // Bare storage: the elements need not be default-constructible (they are of an
    // implicit-lifetime type: trivially copy-constructible and destructible).
    alignas(T) unsigned char kept_bytes[sizeof(T) * leaf_cutoff];
    alignas(T) unsigned char tmp_bytes[sizeof(T) * leaf_cutoff];
    T* const v = std::to_address(first);
    T* const kept = reinterpret_cast<T*>(kept_bytes);
    T* const tmp = reinterpret_cast<T*>(tmp_bytes);
    std::uninitialized_copy_n(v, n, kept);
    bool ok;
    try {
      ok = leaf_sort_halves<true>(v, n, tmp, comp);
    } catch (...) {
      std::copy_n(kept, n, v);
      throw;
    }
    if (!ok) {
      std::copy_n(kept, n, v);
      insertion_sort(first, last, comp);
    }
  } else {
    insertion_sort(first, last, comp);
  }
}

// Pattern-defeating introsort (after Orson Peters' pdqsort, reduced): median-of-3 (ninther
// above 128) pivot kept at *first, a Hoare partition that stops on equal keys (all-equal
// input splits evenly) or, for small trivially copyable elements, the block and Lomuto
// partitions (equal keys go right, and the next step's pass below takes them), elements equal to a
// previous pivot split off in one linear pass (few distinct keys cost O(n) per key),
// heapsort past 2 log2(n) levels of bad splits.
template <class It, class Comp>
void introsort_loop(It first, It last, Comp& comp, int budget, bool leftmost) {
  while (last - first > leaf_cutoff) {
    const std::ptrdiff_t n = last - first;
    choose_pivot(first, last, comp);
    // *first is the pivot from here on. Equal to the element left of the range (a pivot of
    // an enclosing call, no greater than anything here): take every element equal to it.
    if (!leftmost && !comp(*std::prev(first), *first)) {
      auto&& pivot = *first;  // comp may take non-const references, as std::sort allows
      first = partition_chunk(std::next(first), last, [&](auto&& x) { return !comp(pivot, x); });
      continue;
    }
    const It j = partition_for_sort(first, last, comp);
    const std::ptrdiff_t l = j - first, r = last - j - 1;
    if (std::min(l, r) < n / 8 && --budget <= 0) {
      heap_sort(first, last, comp);
      return;
    }
    if (l < r) {
      introsort_loop(first, j, comp, budget, leftmost);
      first = std::next(j);
      leftmost = false;
    } else {
      introsort_loop(std::next(j), last, comp, budget, false);
      last = j;
    }
  }
  leaf_sort(first, last, comp);
}

template <class It, class Comp>
void introsort(It first, It last, Comp& comp) {
  const auto n = static_cast<std::size_t>(last - first);
  introsort_loop(first, last, comp, 2 * static_cast<int>(std::bit_width(n)), true);
}

// nth_element on introsort's guarded partition (introselect): partitions until the pivot
// lands on nth, keeping the side that holds it; heapsorts the rest past 2 log2(n) bad
// splits; throws weft::invalid_comparator at a bad split whose pivot the comparator holds
// less than itself. Unlike std::nth_element's unguarded partition, no comparator can move its scans
// out of [first, last), and an exception from the comparator leaves a permutation.
template <class It, class Comp>
void introselect(It first, It nth, It last, Comp& comp) {
  if (nth == last) return;
  int budget = 2 * static_cast<int>(std::bit_width(static_cast<std::size_t>(last - first)));
  while (last - first > leaf_cutoff) {
    const std::ptrdiff_t n = last - first;
    choose_pivot(first, last, comp);
    const It j = partition_at_pivot(first, last, comp);
    if (j == nth) return;
    if (std::min(j - first, last - j - 1) < n / 8) {
      // Bad splits are what a comparator that holds an element less than itself (`<=`,
      // always true) gives on any input: its budget of 2 log2(n) partition passes and the
      // heapsort after them would cost 10-30 times the linear selection a valid one gets.
      // One call per bad split tells them apart.
      if (comp(*j, *j)) throw_invalid_comparator_cold();
      if (--budget <= 0) {
        heap_sort(first, last, comp);
        return;
      }
    }
    if (nth < j)
      last = j;
    else
      first = std::next(j);
  }
  leaf_sort(first, last, comp);
}

// The loop of a stable merge: moves the lesser head (on a tie, the first input's) to o until
// either input ends. It advances the caller's positions, so that a handler of the
// comparator's exception knows how far it got. Over contiguous storage the step picks its
// source without a branch (the comparison's answer selects the element and the advances).
template <class I1, class I2, class O, class Comp>
void merge_heads(I1& f1, I1 l1, I2& f2, I2 l2, O& o, Comp& comp) {
  if constexpr (std::contiguous_iterator<I1> && std::contiguous_iterator<I2> &&
                std::is_same_v<std::iter_reference_t<I1>, std::iter_reference_t<I2>>) {
    while (f1 != l1 && f2 != l2) {
      const bool second = static_cast<bool>(comp(*f2, *f1));
      *o = std::move(*pick(second, std::to_address(f2), std::to_address(f1)));
      f2 += second;
      f1 += !second;
      ++o;
    }
  } else {
    while (f1 != l1 && f2 != l2) {
      if (comp(*f2, *f1)) {
        *o = std::move(*f2);
        ++f2;
      } else {
        *o = std::move(*f1);
        ++f1;
      }
      ++o;
    }
  }
}

// Merges [f1, l1), a left run moved out to a buffer, with [f2, l2) into [o, l2), where
// o + (l1 - f1) == f2: the output never overtakes f2, and if the comparator throws, the
// buffer's rest exactly fills the gap between the output and f2.
template <class B, class It, class Comp>
void merge_from_buffer(B f1, B l1, It f2, It l2, It o, Comp& comp) {
  try {
    merge_heads(f1, l1, f2, l2, o, comp);
  } catch (...) {
    std::move(f1, l1, o);
    throw;
  }
  std::move(f1, l1, o);
}

// Moves the stable merge of [f1, l1) and [f2, l2) to out, by assignment. If the comparator
// throws, the elements already moved out go back into the holes they left, so the two
// inputs again hold every element.
template <class I1, class I2, class O, class Comp>
void merge_move(I1 f1, I1 l1, I2 f2, I2 l2, O out, Comp& comp) {
  const I1 s1 = f1;
  const I2 s2 = f2;
  O o = out;
  try {
    merge_heads(f1, l1, f2, l2, o, comp);
  } catch (...) {
    O r = out;
    for (I1 h = s1; h != f1; ++h, ++r) *h = std::move(*r);
    for (I2 h = s2; h != f2; ++h, ++r) *h = std::move(*r);
    throw;
  }
  o = std::move(f1, l1, o);
  std::move(f2, l2, o);
}

// Merges [first, middle) (n1 elements) and [middle, last) (n2) in place by rotations: split
// the longer run in half, find where its middle element goes in the other run by a binary
// search, rotate, recurse. Each level halves the longer run, so the depth is at most
// log2(n1) + log2(n2) + 2 whatever the comparator answers; the searches stay inside their
// runs; elements move only by swaps and rotations, never while the comparator runs, so an
// exception leaves a permutation. O(n log n) comparisons and moves; bidirectional iterators.
template <class It, class Comp>
void merge_by_rotation(It first, It middle, It last, std::size_t n1, std::size_t n2, Comp& comp) {
  if (n1 == 0 || n2 == 0) return;
  if (n1 + n2 == 2) {
    if (comp(*middle, *first)) std::iter_swap(first, middle);
    return;
  }
  It cut1 = first, cut2 = middle;
  std::size_t k1 = 0, k2 = 0;
  if (n1 > n2) {
    k1 = n1 / 2;
    std::advance(cut1, static_cast<std::iter_difference_t<It>>(k1));
    cut2 = std::lower_bound(middle, last, *cut1, comp);
    k2 = static_cast<std::size_t>(std::distance(middle, cut2));
  } else {
    k2 = n2 / 2;
    std::advance(cut2, static_cast<std::iter_difference_t<It>>(k2));
    cut1 = std::upper_bound(first, middle, *cut2, comp);
    k1 = static_cast<std::size_t>(std::distance(first, cut1));
  }
  const It mid = std::rotate(cut1, middle, cut2);
  merge_by_rotation(first, cut1, mid, k1, k2, comp);
  merge_by_rotation(mid, cut2, last, n1 - k1, n2 - k2, comp);
}

// inplace_merge on the calling thread. Random-access iterators over elements with noexcept
// moves: the left run moves to a buffer and merges forward into place; the output never
// overtakes the right run's next element, and if the comparator throws, the buffer's
// remaining elements exactly fill the gap between the two. Otherwise, or if the buffer cannot
// be had, merge_by_rotation.
template <class It, class Comp>
void inplace_merge_seq(It first, It middle, It last, Comp& comp) {
  const auto n1 = static_cast<std::size_t>(std::distance(first, middle));
  const auto n2 = static_cast<std::size_t>(std::distance(middle, last));
  if (n1 == 0 || n2 == 0) return;
  if constexpr (std::random_access_iterator<It> && nothrow_movable_v<It>) {
    std::vector<std::iter_value_t<It>> buf;
    try {
      buf.reserve(n1);
    } catch (const std::bad_alloc&) {
      merge_by_rotation(first, middle, last, n1, n2, comp);
      return;
    }
    buf.assign(std::make_move_iterator(first), std::make_move_iterator(middle));
    merge_from_buffer(buf.begin(), buf.end(), middle, last, first, comp);
  } else {
    merge_by_rotation(first, middle, last, n1, n2, comp);
  }
}

}  // namespace weft::detail::algo
