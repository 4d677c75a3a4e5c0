// SPDX-License-Identifier: MIT
// The radix sort's keys (the unsigned image of an arithmetic key, through a projection) and
// its sequential kernel: insertion sorts for short ranges, LSD passes for cache-sized ones,
// an MSD digit above that. Stable. radix_sort.hpp builds the parallel sort on it.
// Design and measurements: docs/algorithms.md#sort
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

#include "weft/detail/config.hpp"

namespace weft::detail::algo {

// --- keys ---------------------------------------------------------------------------------

template <class K>
inline constexpr bool radix_key_v = std::is_arithmetic_v<K> && sizeof(K) <= 8 &&
                                    !std::is_same_v<std::remove_cv_t<K>, long double>;

template <class K>
using radix_uint_t = std::conditional_t<(sizeof(K) <= 4), std::uint32_t, std::uint64_t>;

// The unsigned image of a key whose unsigned order is the key's `<` order: the sign bit
// flipped for signed integers; for floating point, negatives inverted and positives given
// the sign bit. -0.0 maps to +0.0's image (they compare equal, and stable_sort must keep
// their order); NaNs land by bit pattern, positive ones after +inf, negative before -inf.
template <class K>
radix_uint_t<K> radix_image(K k) noexcept {
  using U = radix_uint_t<K>;
  if constexpr (std::is_floating_point_v<K>) {
    if (k == K(0)) k = K(0);
    using B = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;
    const B b = std::bit_cast<B>(k);
    constexpr B sign = B(1) << (sizeof(B) * 8 - 1);
    return static_cast<U>((b & sign) ? ~b : (b | sign));
  } else if constexpr (std::is_same_v<std::remove_cv_t<K>, bool>) {
    return static_cast<U>(k);
  } else if constexpr (std::is_signed_v<K>) {
    using SU = std::make_unsigned_t<K>;
    constexpr SU sign = SU(1) << (sizeof(K) * 8 - 1);
    return static_cast<U>(static_cast<SU>(static_cast<SU>(k) ^ sign));
  } else {
    return static_cast<U>(k);
  }
}

// The key of an element: the projection, then the image, inverted for a descending order.
// It may throw only where the projection may (keyed_radix_sort.hpp's checked path).
template <class Proj, class K, bool Descending>
struct radix_key_fn {
  using uint_type = radix_uint_t<K>;
  Proj proj;
  template <class T>
  uint_type operator()(const T& x) const
      noexcept(std::is_nothrow_invocable_v<const Proj&, const T&>) {
    const uint_type u = radix_image<K>(static_cast<K>(std::invoke(proj, x)));
    if constexpr (Descending)
      return static_cast<uint_type>(~u);
    else
      return u;
  }
};

// Elements the radix sort can move with placement new and never destroy.
template <class T>
inline constexpr bool radix_movable_v =
    std::is_nothrow_move_constructible_v<T> && std::is_trivially_destructible_v<T>;

template <class T>
WEFT_INLINE void radix_put(T* to, T& from) noexcept {
  ::new (static_cast<void*>(to)) T(std::move(from));
}

// --- the sequential kernel ------------------------------------------------------------------

// Ranges up to this length are insertion-sorted: below it a digit pass costs more than the
// few moves an insertion sort makes.
inline constexpr std::size_t radix_small = 32;
// The widest digit: 2^11 counters (8 KiB) stay in L1 next to the data being scattered.
inline constexpr unsigned radix_max_digit = 11;

// Insertion sort of [a, a + n) that gives up once it has moved more than `budget` elements
// (returns false then; the range is a permutation of its input, every run of keys that
// agree on the bits from `wlow` up still in place, in some order).
template <class T, class KeyFn>
bool radix_insertion_bounded(T* a, std::size_t n, std::size_t budget, const KeyFn& key) noexcept {
  for (std::size_t i = 1; i < n; ++i) {
    const auto k = key(a[i]);
    if (!(k < key(a[i - 1]))) continue;
    T tmp(std::move(a[i]));
    std::size_t j = i;
    do {
      radix_put(a + j, a[j - 1]);
      --j;
    } while (j > 0 && k < key(a[j - 1]));
    radix_put(a + j, tmp);
    const std::size_t moved = i - j;
    if (moved > budget) return false;
    budget -= moved;
  }
  return true;
}

template <class T, class KeyFn>
void radix_insertion(T* a, std::size_t n, const KeyFn& key) noexcept {
  radix_insertion_bounded(a, n, static_cast<std::size_t>(-1), key);
}

// Moves [from, from + n) to the disjoint [to, to + n).
template <class T>
void radix_move_all(T* to, T* from, std::size_t n) noexcept {
  if constexpr (std::is_trivially_copyable_v<T>) {
    if (n != 0) std::memcpy(static_cast<void*>(to), static_cast<const void*>(from), n * sizeof(T));
  } else {
    for (std::size_t i = 0; i < n; ++i) radix_put(to + i, from[i]);
  }
}

template <class KeyFn, class T>
auto radix_diff_mask(const T* a, std::size_t n, const KeyFn& key) noexcept {
  using U = decltype(key(a[0]));
  const U k0 = key(a[0]);
  U mask = 0;
  for (std::size_t i = 1; i < n; ++i) mask |= static_cast<U>(key(a[i]) ^ k0);
  return mask;
}

// Ranges up to this many elements (512 KiB of 8-byte elements: L2) take the LSD path.
inline constexpr std::size_t radix_lsd_max = std::size_t(1) << 16;
// When the keys of a range differ on at most this many bits, its LSD passes cover all of
// them and the range is sorted exactly.
inline constexpr unsigned radix_lsd_exact = 2 * radix_max_digit;
// Otherwise the LSD window covers log2(n) plus this many bits below the top differing bit:
// keys that still agree on the whole window are few, and form short runs that are then
// finished on their own.
// Measured on 20 M random u64 (buckets of ~20 Ki, two 8-bit passes at 0): +8 adds a third
// pass and is ~40% slower over the buckets (sorted alone, in cache); -4 leaves one pass and
// ties in runs of ~10, whose insertion sort costs more than the pass it saves; 1 and 2 are
// within the noise of 0.
inline constexpr int radix_lsd_slack = 0;

template <bool InPlace, class T, class KeyFn>
void radix_seq(T* a, T* b, std::size_t n, unsigned top, unsigned low, const KeyFn& key) noexcept;

// Sorts the runs of `out` whose keys agree from bit `wlow` up (they are adjacent: the range
// is sorted on those bits) by their bits [low, wlow): short runs by insertion, long ones by
// radix_seq on the bits that differ within the run, with `tmp` (as long as out) as scratch.
// Bounded work: no quadratic insertion sort whatever the keys.
template <class T, class KeyFn>
void radix_finish_runs(T* out, T* tmp, std::size_t n, unsigned wlow, unsigned low,
                       const KeyFn& key) noexcept {
  using U = decltype(key(out[0]));
  std::size_t i = 0;
  U g = static_cast<U>(key(out[0]) >> wlow);
  while (i < n) {
    std::size_t j = i + 1;
    U h = 0;
    while (j < n && (h = static_cast<U>(key(out[j]) >> wlow)) == g) ++j;
    const std::size_t m = j - i;
    if (m > 1 && m <= radix_small) {
      radix_insertion(out + i, m, key);
    } else if (m > 1) {
      // The run's own differing bits: ties this long come from keys with few differing bits,
      // which the next window should cover exactly rather than guess at again.
      const U mk = radix_diff_mask(out + i, m, key);
      if (mk != 0)
        radix_seq<true>(out + i, tmp + i, m, static_cast<unsigned>(std::bit_width(mk)),
                        std::max(low, static_cast<unsigned>(std::countr_zero(mk))), key);
    }
    g = h;
    i = j;
  }
}


// Counts the digits of every pass in one read: count[p][digit p of key >> wlow].
template <unsigned Passes, class T, class KeyFn, class U>
void radix_count_digits(const T* a, std::size_t n, unsigned wlow, unsigned w, U dmask,
                        std::uint32_t (*count)[std::size_t(1) << radix_max_digit],
                        const KeyFn& key) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const U k = static_cast<U>(key(a[i]) >> wlow);
    for (unsigned p = 0; p < Passes; ++p) ++count[p][(k >> (p * w)) & dmask];
  }
}

// A cache-sized range whose keys differ only on bits [low, top): stable counting passes from
// the low digit of a window of bits just below `top` up to its high digit, all digits counted
// in one read, a digit on which every key agrees skipped. The window covers [low, top) when
// that is at most radix_lsd_exact bits wide; else about log2(n) + radix_lsd_slack bits, and
// the few keys still tied on the window are put in order by an insertion sort (which gives
// way to radix_finish_runs if the ties turn out to be many).
// Reads [src, src + n), leaves the result in [out, out + n). Buffers: src == out (in place)
// with `third` as the scratch; or src != out with `third` null (the passes alternate between
// the two, and an even count ends with a copy); or three distinct buffers, where the passes
// alternate between third and src and the last one writes out: no copy, and the first of
// several passes writes into `third`, which the caller keeps warm in cache. A single pass
// writes out at once (the buckets of 20 M (u32, u32) pairs by a 20-bit key: 217-222 ms ->
// 197-212 at one thread, 122 -> 115 ms at two, against a pass into `third` and a copy).
template <class T, class KeyFn>
void radix_lsd_to(T* src, T* out, T* third, std::size_t n, unsigned top, unsigned low,
                  const KeyFn& key) noexcept {
  using U = decltype(key(src[0]));
  const unsigned span = top - low;
  const int want = static_cast<int>(std::bit_width(n)) + radix_lsd_slack;
  const unsigned window =
      span <= radix_lsd_exact ? span : std::min(span, static_cast<unsigned>(std::max(want, 1)));
  constexpr unsigned max_passes = (sizeof(U) * 8 + radix_max_digit - 1) / radix_max_digit;
  const unsigned passes = (window + radix_max_digit - 1) / radix_max_digit;
  const unsigned w = (window + passes - 1) / passes;
  const unsigned wlow = top - std::min(top, w * passes);
  constexpr std::size_t most = std::size_t(1) << radix_max_digit;
  const std::size_t d = std::size_t(1) << w;
  const U dmask = static_cast<U>(d - 1);
  std::uint32_t count[max_passes][most];
  for (unsigned p = 0; p < passes; ++p) std::fill_n(count[p], d, 0u);
  switch (passes) {
    case 1: radix_count_digits<1>(src, n, wlow, w, dmask, count, key); break;
    case 2: radix_count_digits<2>(src, n, wlow, w, dmask, count, key); break;
    case 3: radix_count_digits<3>(src, n, wlow, w, dmask, count, key); break;
    default:
      for (std::size_t i = 0; i < n; ++i) {
        const U k = static_cast<U>(key(src[i]) >> wlow);
        for (unsigned p = 0; p < passes; ++p) ++count[p][(k >> (p * w)) & dmask];
      }
  }
  // The passes whose digit differs somewhere (a digit's constancy does not depend on order).
  unsigned live[max_passes];
  unsigned e = 0;
  const U k0 = key(src[0]);
  for (unsigned p = 0; p < passes; ++p)
    if (count[p][(k0 >> (wlow + p * w)) & dmask] != n) live[e++] = p;
  const bool three = third != nullptr && src != out;
  T* const two = src == out ? third : out;  // with two buffers: the one that is not src
  T* from = src;
  for (unsigned k = 0; k < e; ++k) {
    T* const to = three ? (k + 1 == e ? out : (from == third ? src : third))
                        : (from == src ? two : src);
    std::uint32_t* c = count[live[k]];
    const unsigned sh = wlow + live[k] * w;
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < d; ++i) sum += std::exchange(c[i], sum);
    for (std::size_t i = 0; i < n; ++i) radix_put(to + c[(key(from[i]) >> sh) & dmask]++, from[i]);
    from = to;
  }
  if (from != out) radix_move_all(out, from, n);
  if (wlow > low && !radix_insertion_bounded(out, n, 2 * n, key))
    radix_finish_runs(out, src != out ? src : third, n, wlow, low, key);
}

// radix_lsd_to on two buffers; the result where InPlace says (see radix_seq).
template <bool InPlace, class T, class KeyFn>
void radix_lsd(T* a, T* b, std::size_t n, unsigned top, unsigned low, const KeyFn& key) noexcept {
  if constexpr (InPlace)
    radix_lsd_to(a, a, b, n, top, low, key);
  else
    radix_lsd_to(a, b, static_cast<T*>(nullptr), n, top, low, key);
}

// Sorts [a, a + n), whose keys differ only on bits [low, top) (low: a lower bound, 0 when
// unknown). InPlace: the result ends in a, with b as scratch; otherwise the result ends in b.
// Recursion alternates the two.
template <bool InPlace, class T, class KeyFn>
void radix_seq(T* a, T* b, std::size_t n, unsigned top, unsigned low, const KeyFn& key) noexcept {
  using U = decltype(key(a[0]));
  T* const out = InPlace ? a : b;
  if (n <= radix_small || top <= low) {
    if constexpr (!InPlace) radix_move_all(b, a, n);
    if (top > low) radix_insertion(out, n, key);
    return;
  }
  if (n <= radix_lsd_max) {
    radix_lsd<InPlace>(a, b, n, top, low, key);
    return;
  }
  U mask = radix_diff_mask(a, n, key);
  if (top < sizeof(U) * 8) mask &= static_cast<U>((U(1) << top) - 1);
  if (mask == 0) {
    if constexpr (!InPlace) radix_move_all(b, a, n);
    return;
  }
  top = static_cast<unsigned>(std::bit_width(mask));
  low = std::max(low, static_cast<unsigned>(std::countr_zero(mask)));
  if (top - low <= radix_lsd_exact) {
    radix_lsd<InPlace>(a, b, n, top, low, key);
    return;
  }
  const unsigned w = std::min(top - low, radix_max_digit);
  const unsigned shift = top - w;
  const std::size_t d = std::size_t(1) << w;
  const U dmask = static_cast<U>(d - 1);
  std::uint32_t count[std::size_t(1) << radix_max_digit];
  std::fill_n(count, d, 0u);
  for (std::size_t i = 0; i < n; ++i) ++count[(key(a[i]) >> shift) & dmask];
  std::uint32_t start[(std::size_t(1) << radix_max_digit) + 1];
  start[0] = 0;
  for (std::size_t i = 0; i < d; ++i) start[i + 1] = start[i] + count[i];
  std::copy_n(start, d, count);
  for (std::size_t i = 0; i < n; ++i) radix_put(b + count[(key(a[i]) >> shift) & dmask]++, a[i]);
  // Data is in b now. Buckets longer than radix_small recurse; the short ones are left for
  // one insertion sort over the whole range at the end, where an element only ever moves
  // inside its own bucket (and a recursed bucket, already sorted, costs a compare apiece).
  bool short_left = false;
  for (std::size_t i = 0; i < d; ++i) {
    const std::size_t s = start[i], m = start[i + 1] - start[i];
    if (shift > low && m > radix_small) {
      radix_seq<!InPlace>(b + s, a + s, m, shift, low, key);
    } else {
      short_left |= m > 1;
      if constexpr (InPlace) radix_move_all(a + s, b + s, m);
    }
  }
  if (shift > low && short_left) radix_insertion(out, n, key);
}

}  // namespace weft::detail::algo
