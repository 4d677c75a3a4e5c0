// SPDX-License-Identifier: MIT
// Radix sort for arithmetic keys: one parallel MSD scatter on the top differing bits, then
// each bucket (now cache-sized) sorted on its own by a sequential MSD radix sort, the buckets
// handed to the engine as sub-problems. Every scatter keeps the input order of equal digits
// and the small-range sort is an insertion sort, so the whole sort is stable.
// Design and measurements: docs/algorithms.md#sort
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/detail/algo/blocks.hpp"
#include "weft/detail/algo/scratch.hpp"

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
template <class Proj, class K, bool Descending>
struct radix_key_fn {
  using uint_type = radix_uint_t<K>;
  Proj proj;
  template <class T>
  uint_type operator()(const T& x) const noexcept {
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

template <class T, class KeyFn>
void radix_insertion(T* a, std::size_t n, const KeyFn& key) noexcept {
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
// The LSD window covers this many bits more than log2(n): keys that still agree on the
// whole window are rare, and the insertion sort that finishes them is about one compare
// per element.
inline constexpr unsigned radix_lsd_slack = 8;

template <bool InPlace, class T, class KeyFn>
void radix_seq(T* a, T* b, std::size_t n, unsigned bits, const KeyFn& key) noexcept;

// A cache-sized range whose keys agree from bit `top` up: stable counting passes from the
// low digit of the window of bits just below `top` up to its high digit, all digits counted
// in one read, a digit on which every key agrees skipped; then, if bits are left below the
// window, one insertion sort. Result where InPlace says (see radix_seq).
template <bool InPlace, class T, class KeyFn>
void radix_lsd(T* a, T* b, std::size_t n, unsigned top, const KeyFn& key) noexcept {
  using U = decltype(key(a[0]));
  const unsigned want = static_cast<unsigned>(std::bit_width(n)) + radix_lsd_slack;
  const unsigned window = std::min(top, want);
  // An odd number of passes ends in b, an even one in a: one more (narrower) pass where
  // that saves the final copy.
  unsigned passes = (window + radix_max_digit - 1) / radix_max_digit;
  if ((passes % 2 == 1) == InPlace && passes < window) ++passes;
  const unsigned w = (window + passes - 1) / passes;
  const unsigned low = top - std::min(top, w * passes);
  constexpr std::size_t most = std::size_t(1) << radix_max_digit;
  constexpr unsigned max_passes = (sizeof(U) * 8 + radix_max_digit - 1) / radix_max_digit + 1;
  const std::size_t d = std::size_t(1) << w;
  const U dmask = static_cast<U>(d - 1);
  std::uint32_t count[max_passes][most];
  for (unsigned p = 0; p < passes; ++p) std::fill_n(count[p], d, 0u);
  for (std::size_t i = 0; i < n; ++i) {
    const U k = static_cast<U>(key(a[i]) >> low);
    for (unsigned p = 0; p < passes; ++p) ++count[p][(k >> (p * w)) & dmask];
  }
  T* from = a;
  T* to = b;
  for (unsigned p = 0; p < passes; ++p) {
    std::uint32_t* c = count[p];
    const unsigned sh = low + p * w;
    if (c[(key(from[0]) >> sh) & dmask] == n) continue;
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < d; ++i) sum += std::exchange(c[i], sum);
    for (std::size_t i = 0; i < n; ++i) radix_put(to + c[(key(from[i]) >> sh) & dmask]++, from[i]);
    std::swap(from, to);
  }
  T* const out = InPlace ? a : b;
  if (from != out)
    for (std::size_t i = 0; i < n; ++i) radix_put(out + i, from[i]);
  if (low != 0) radix_insertion(out, n, key);
}

// Sorts [a, a + n), whose keys agree on every bit from `bits` up. InPlace: the result ends
// in a, with b as scratch; otherwise the result ends in b. Recursion alternates the two.
template <bool InPlace, class T, class KeyFn>
void radix_seq(T* a, T* b, std::size_t n, unsigned bits, const KeyFn& key) noexcept {
  using U = decltype(key(a[0]));
  T* const out = InPlace ? a : b;
  if (n <= radix_small) {
    if constexpr (!InPlace)
      for (std::size_t i = 0; i < n; ++i) radix_put(b + i, a[i]);
    radix_insertion(out, n, key);
    return;
  }
  if (n <= radix_lsd_max) {
    radix_lsd<InPlace>(a, b, n, bits, key);
    return;
  }
  U mask = radix_diff_mask(a, n, key);
  if (bits < sizeof(U) * 8) mask &= static_cast<U>((U(1) << bits) - 1);
  if (mask == 0) {
    if constexpr (!InPlace)
      for (std::size_t i = 0; i < n; ++i) radix_put(b + i, a[i]);
    return;
  }
  const unsigned top = static_cast<unsigned>(std::bit_width(mask));
  const unsigned w = std::min(top, radix_max_digit);
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
    if (shift != 0 && m > radix_small) {
      radix_seq<!InPlace>(b + s, a + s, m, shift, key);
    } else {
      short_left |= m > 1;
      if constexpr (InPlace)
        for (std::size_t j = s; j < s + m; ++j) radix_put(a + j, b[j]);
    }
  }
  if (shift != 0 && short_left) radix_insertion(out, n, key);
}

// --- the parallel top level -----------------------------------------------------------------

// What one pass over the input learns: which key bits differ, and whether the input is
// already in order (ascending), or in reverse order (non-increasing, strictly decreasing).
template <class U>
struct radix_survey {
  U first, last, mask;
  bool asc, desc, sdesc;
};

template <class U>
radix_survey<U> radix_survey_join(const radix_survey<U>& l, const radix_survey<U>& r) noexcept {
  return {l.first, r.last, static_cast<U>(l.mask | r.mask),
          l.asc && r.asc && !(r.first < l.last), l.desc && r.desc && !(l.last < r.first),
          l.sdesc && r.sdesc && r.first < l.last};
}

template <class T, class KeyFn>
auto radix_survey_of(const T* a, std::size_t n, const KeyFn& key) {
  using U = decltype(key(a[0]));
  const U k0 = key(a[0]);
  const auto block = [&](std::size_t lo, std::size_t hi) {
    radix_survey<U> s{key(a[lo]), key(a[lo]), 0, true, true, true};
    U prev = s.first, mask = static_cast<U>(prev ^ k0);
    bool asc = true, desc = true, sdesc = true;
    for (std::size_t i = lo + 1; i < hi; ++i) {
      const U k = key(a[i]);
      mask |= static_cast<U>(k ^ k0);
      asc &= !(k < prev);
      desc &= !(prev < k);
      sdesc &= k < prev;
      prev = k;
    }
    s.last = prev;
    s.mask = mask;
    s.asc = asc;
    s.desc = desc;
    s.sdesc = sdesc;
    return s;
  };
  return *reduce_blocks<radix_survey<U>>(
      n, block, [](const radix_survey<U>& l, const radix_survey<U>& r) {
        return radix_survey_join(l, r);
      });
}

// One tile of the parallel scatter holds at least this many elements per bucket on average,
// so that its row of counters costs little next to its elements. Tiles are fixed before the
// counting pass because the scatter pass must walk exactly the same blocks.
inline constexpr std::size_t radix_tile_per_bucket = 32;
inline constexpr std::size_t radix_min_tile = std::size_t(1) << 14;
// The parallel digit aims at buckets of about this many elements (they then sort in L2); it
// is at most 10 bits: 2^10 scatter streams measured fastest here (12 bits: 30% slower).
inline constexpr std::size_t radix_bucket_target = 16384;
inline constexpr unsigned radix_max_par_digit = 10;

// As radix_seq, with the top digit's counting and scatter split over the pool, then the
// buckets sorted as independent sub-problems. A bucket holding more than an eighth of the
// input (a skewed distribution) is sorted by this same parallel routine afterwards.
template <bool InPlace, class T, class KeyFn>
void radix_par(T* a, T* b, std::size_t n, decltype(std::declval<KeyFn>()(std::declval<T&>())) mask,
               const KeyFn& key) {
  using U = decltype(key(a[0]));
  const unsigned top = static_cast<unsigned>(std::bit_width(mask));
  const unsigned w =
      std::min(top, std::clamp(static_cast<unsigned>(std::bit_width(n / radix_bucket_target)), 1u,
                               radix_max_par_digit));
  const std::size_t d = std::size_t(1) << w;
  const std::size_t tile = std::max(radix_min_tile, d * radix_tile_per_bucket);
  if (n <= 2 * tile) {
    radix_seq<InPlace>(a, b, n, top, key);
    return;
  }
  const unsigned shift = top - w;
  const U dmask = static_cast<U>(d - 1);
  const std::size_t tiles = (n + tile - 1) / tile;
  std::vector<std::size_t> count(tiles * d);
  for_blocks(tiles, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t t = lo; t < hi; ++t) {
      std::size_t* c = count.data() + t * d;
      const std::size_t e = std::min(n, (t + 1) * tile);
      for (std::size_t i = t * tile; i < e; ++i) ++c[(key(a[i]) >> shift) & dmask];
    }
  });
  // Exclusive prefix in (digit, tile) order: equal digits keep the tiles' order (stability).
  std::vector<std::size_t> start(d + 1, 0);
  for (std::size_t t = 0; t < tiles; ++t)
    for (std::size_t i = 0; i < d; ++i) start[i + 1] += count[t * d + i];
  for (std::size_t i = 0; i < d; ++i) start[i + 1] += start[i];
  std::vector<std::size_t> run(start.begin(), start.end() - 1);
  for (std::size_t t = 0; t < tiles; ++t)
    for (std::size_t i = 0; i < d; ++i) {
      const std::size_t c = count[t * d + i];
      count[t * d + i] = run[i];
      run[i] += c;
    }
  for_blocks(tiles, [&](std::size_t lo, std::size_t hi) {
    // A local copy of the offsets: the compiler can see that the scatter's stores into b
    // never write it, which it cannot for the shared table when T is itself a size_t.
    std::size_t c[std::size_t(1) << radix_max_par_digit];
    for (std::size_t t = lo; t < hi; ++t) {
      std::copy_n(count.data() + t * d, d, c);
      const std::size_t e = std::min(n, (t + 1) * tile);
      for (std::size_t i = t * tile; i < e; ++i) radix_put(b + c[(key(a[i]) >> shift) & dmask]++, a[i]);
    }
  });
  const std::size_t big = std::max(n / 8, 2 * tile);
  const auto finish = [&](std::size_t s, std::size_t m) {
    if (shift == 0) {
      if constexpr (InPlace)
        for (std::size_t j = s; j < s + m; ++j) radix_put(a + j, b[j]);
    } else {
      radix_seq<!InPlace>(b + s, a + s, m, shift, key);
    }
  };
  for_blocks(d, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      const std::size_t m = start[i + 1] - start[i];
      if (m != 0 && m <= big) finish(start[i], m);
    }
  });
  for (std::size_t i = 0; i < d; ++i) {
    const std::size_t s = start[i], m = start[i + 1] - s;
    if (m <= big) continue;
    U sub = 0;
    if (shift != 0) {
      sub = radix_diff_mask(b + s, m, key);
      sub &= static_cast<U>((U(1) << shift) - 1);
    }
    if (sub != 0) {
      radix_par<!InPlace>(b + s, a + s, m, sub, key);
    } else if constexpr (InPlace) {
      for_blocks(m, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t j = s + lo; j < s + hi; ++j) radix_put(a + j, b[j]);
      });
    }
  }
}

// Sorts [a, a + n) by key. Stable. Returns without touching the input when it is already in
// order; reverses it when it is in reverse order (strictly, when `stable`).
template <class T, class KeyFn>
void radix_sort(T* a, std::size_t n, const KeyFn& key, bool stable) {
  if (n < 2) return;
  if (n <= radix_small) {
    radix_insertion(a, n, key);
    return;
  }
  const auto s = radix_survey_of(a, n, key);
  if (s.asc || s.mask == 0) return;
  if (stable ? s.sdesc : s.desc) {
    for_blocks(n / 2, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) std::swap(a[i], a[n - 1 - i]);
    });
    return;
  }
  scratch<T> buf(n);
  radix_par<true>(a, buf.data(), n, s.mask, key);
}

}  // namespace weft::detail::algo
