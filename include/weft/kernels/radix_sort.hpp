// SPDX-License-Identifier: MIT
// Radix sort for arithmetic keys: one fused pass (first-digit counts + which bits differ +
// order checks), one parallel MSD scatter on the top differing bits, then each bucket (now
// cache-sized) sorted on its own by LSD passes through a per-task spare buffer, the buckets
// handed to the engine as sub-problems. Every scatter keeps the input order of equal digits
// and the small-range sorts are insertion sorts, so the whole sort is stable. The keys and
// the sequential kernel are in radix_seq.hpp.
// Design and measurements: docs/algorithms.md#sort
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/radix_seq.hpp"
#include "weft/kernels/scratch.hpp"
#include "weft/kernels/stream_store.hpp"

namespace weft::detail::algo {

// --- the parallel top level -----------------------------------------------------------------

// What one pass over the input learns: which key bits differ, and whether the input is
// already in order (ascending), or in reverse order (non-increasing, strictly decreasing).
template <class U>
struct radix_survey {
  U first, last, mask;
  bool asc, desc, sdesc;
};

// The survey pass's reduction runs on the compiled engine (run_blocks in plumbing/blocks.hpp).
WEFT_API std::optional<radix_survey<std::uint32_t>> run_blocks(
    std::size_t n, const reduce_blocks_consumer<radix_survey<std::uint32_t>>& c,
    const split_options& opt);
WEFT_API std::optional<radix_survey<std::uint64_t>> run_blocks(
    std::size_t n, const reduce_blocks_consumer<radix_survey<std::uint64_t>>& c,
    const split_options& opt);

template <class U>
radix_survey<U> radix_survey_join(const radix_survey<U>& l, const radix_survey<U>& r) noexcept {
  return {l.first, r.last, static_cast<U>(l.mask | r.mask),
          l.asc && r.asc && !(r.first < l.last), l.desc && r.desc && !(l.last < r.first),
          l.sdesc && r.sdesc && r.first < l.last};
}

// The survey of [lo, hi) (lo < hi), the mask relative to k0; when `count` is not null, also
// the histogram of the digit (key >> shift) & dmask, unless the block is in order (all of it
// ascending or descending): then the return's `counted` is false and the histogram is left
// for later, so that sorted and reversed inputs cost a read without counting. The order
// checks stop at the first key that settles all three (on unordered input, within a few
// keys); the keys before it are then counted again, the rest only counted and masked.
template <class U>
struct radix_block_survey {
  radix_survey<U> s;
  bool counted;
};

template <class T, class KeyFn, class U, class C>
radix_block_survey<U> radix_survey_block(const T* a, std::size_t lo, std::size_t hi, U k0,
                                         const KeyFn& key, C* count, unsigned shift,
                                         U dmask) noexcept(noexcept(key(a[lo]))) {
  // `count` (dmask + 1 counters) arrives uninitialised; it is zeroed here if it is used.
  U prev = key(a[lo]), mask = static_cast<U>(prev ^ k0);
  const U first = prev;
  bool asc = true, desc = true, sdesc = true;
  std::size_t i = lo + 1;
  // While the keys are equal both directions are open; a step settles at most one of them.
  for (; i < hi && asc && (desc || sdesc); ++i) {
    const U k = key(a[i]);
    mask |= static_cast<U>(k ^ k0);
    asc &= !(k < prev);
    desc &= !(prev < k);
    sdesc &= k < prev;
    prev = k;
  }
  // Then one lean loop for the direction left open, which leaves at its first misfit (not
  // yet masked: the loops below take it from `i`). Run to its end on a sorted tile, the loop
  // above makes three order tests a key: 22 ms for 20 M keys on one thread, against 9 ms
  // for oneTBB's sortedness check. Ascending keys go a group at a time, the group's order
  // tests ORed with no branch per key; a group that holds a misfit is left to the exact loop
  // after it (one test and branch a key: 10.5 ms on sorted 20 M u64 at one thread; the
  // groups 8.7-9.3). Descending keys gained nothing that way (a reversed input's time is
  // mostly its reversal), so they keep the exact loop.
  if (asc) {
    constexpr std::size_t group = 8;
    while (hi - i >= group) {
      bool fall = false;
      U m = 0, p = prev;
      for (std::size_t j = 0; j < group; ++j) {
        const U k = key(a[i + j]);
        fall |= k < p;
        m |= static_cast<U>(k ^ k0);
        p = k;
      }
      if (fall) break;
      mask |= m;
      prev = p;
      i += group;
    }
    for (; i < hi; ++i) {
      const U k = key(a[i]);
      if (k < prev) [[unlikely]] {
        asc = false;
        break;
      }
      mask |= static_cast<U>(k ^ k0);
      prev = k;
    }
  } else if (desc || sdesc) {
    for (; i < hi; ++i) {
      const U k = key(a[i]);
      if (prev < k) [[unlikely]] {
        desc = sdesc = false;
        break;
      }
      mask |= static_cast<U>(k ^ k0);
      sdesc &= k < prev;
      prev = k;
    }
  }
  if (i == hi) return {{first, prev, mask, asc, desc, sdesc}, false};
  if (count) {
    std::fill_n(count, static_cast<std::size_t>(dmask) + 1, C(0));
    for (std::size_t j = lo; j < i; ++j) ++count[(key(a[j]) >> shift) & dmask];
  }
  for (; i < hi; ++i) {
    const U k = key(a[i]);
    if (count) ++count[(k >> shift) & dmask];
    mask |= static_cast<U>(k ^ k0);
  }
  return {{first, key(a[hi - 1]), mask, asc, desc, sdesc}, true};
}

template <class T, class KeyFn>
auto radix_survey_of(const T* a, std::size_t n, const KeyFn& key) {
  using U = decltype(key(a[0]));
  const U k0 = key(a[0]);
  return *reduce_blocks<radix_survey<U>>(
      n,
      [&](std::size_t lo, std::size_t hi) {
        return radix_survey_block<T, KeyFn, U, std::size_t>(a, lo, hi, k0, key, nullptr, 0, 0).s;
      },
      [](const radix_survey<U>& l, const radix_survey<U>& r) { return radix_survey_join(l, r); });
}

// Raw, uninitialised room for n elements, or null if there is no memory (the caller then
// does without): the radix sort may not throw once it has started moving elements.
template <class T>
struct radix_spare {
  T* p = nullptr;
  explicit radix_spare(std::size_t n) noexcept {
    if (n != 0)
      p = static_cast<T*>(
          ::operator new(n * sizeof(T), std::align_val_t(radix_spare_align), std::nothrow));
  }
  radix_spare(const radix_spare&) = delete;
  radix_spare& operator=(const radix_spare&) = delete;
  ~radix_spare() {
    if (p) ::operator delete(p, std::align_val_t(radix_spare_align));
  }
  static constexpr std::size_t radix_spare_align = alignof(T) > 64 ? alignof(T) : 64;
};

// One tile of the parallel scatter holds at least this many elements per bucket on average,
// so that its row of counters costs little next to its elements. Tiles are fixed before the
// counting pass because the scatter pass must walk exactly the same blocks.
inline constexpr std::size_t radix_tile_per_bucket = 32;
inline constexpr std::size_t radix_min_tile = std::size_t(1) << 14;
// The parallel digit aims at buckets of about this many elements (they then sort in L2); it
// is at most 10 bits: 2^10 scatter streams measured fastest here (12 bits: 30% slower).
inline constexpr std::size_t radix_bucket_target = 16384;
inline constexpr unsigned radix_max_par_digit = 10;
// A parallel digit pass streams its writes from this many digit values up (see
// radix_par_scatter).
inline constexpr std::size_t radix_stream_min_digits = 32;

// The shape of one parallel digit pass over n keys whose top differing bit is top - 1.
struct radix_plan {
  unsigned w, shift;
  std::size_t d, tile, tiles;
};

inline radix_plan radix_plan_for(std::size_t n, unsigned top) noexcept {
  const unsigned w = std::min(
      top, std::clamp(static_cast<unsigned>(std::bit_width(n / radix_bucket_target)), 1u,
                      radix_max_par_digit));
  const std::size_t d = std::size_t(1) << w;
  const std::size_t tile = std::max(radix_min_tile, d * radix_tile_per_bucket);
  return {w, top - w, d, tile, (n + tile - 1) / tile};
}

template <class T, class KeyFn>
void radix_count_tiles(const T* a, std::size_t n, const radix_plan& p, std::size_t* count,
                       const KeyFn& key) {
  using U = decltype(key(a[0]));
  const U dmask = static_cast<U>(p.d - 1);
  for_blocks(p.tiles, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t t = lo; t < hi; ++t) {
      std::size_t* c = count + t * p.d;
      const std::size_t e = std::min(n, (t + 1) * p.tile);
      for (std::size_t i = t * p.tile; i < e; ++i) ++c[(key(a[i]) >> p.shift) & dmask];
    }
  });
}

// The scatter of tiles [lo, hi) from a to b, c[digit] the next place of each digit (advanced
// past the block's elements), through a line-sized buffer per digit: an element goes to the
// buffer slot its destination has in its cache line, and a line that fills is streamed to b
// whole (stream_store.hpp). Writing to a thousand places at once with plain stores, each store
// first reads its line from memory and the thousand partly written lines crowd the cache
// out; this way each line of b is written once, without a read. The first and last line of a
// digit's part of the block may be shared with a neighbouring block: they are written from
// the buffer with plain stores. b must be aligned to sizeof(T), so that slots match lines.
// Measured on 20 M random u64 (an Intel Xeon, one thread): the scatter takes 76 ms this
// way and 150 ms with plain stores.
// Checked (a projection that may throw or answer differently for the same element): `lim`
// holds each digit's end in this block's part of b, and the scatter returns false, leaving
// its lines unwritten, at the first key that would cross it; it never writes outside the
// block's own parts of b.
template <bool Checked, class T, class KeyFn, class U>
bool radix_scatter_streamed(const T* a, T* b, std::size_t lo, std::size_t hi, std::size_t* c,
                            const std::size_t* lim, std::size_t d, unsigned shift, U dmask,
                            const KeyFn& key) noexcept(!Checked) {
  constexpr std::size_t per_line = stream_line_bytes / sizeof(T);
  constexpr std::size_t most = std::size_t(1) << radix_max_par_digit;
  alignas(stream_line_bytes) std::byte line[most][stream_line_bytes];
  std::size_t first[most];
  std::copy_n(c, d, first);
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(b) / sizeof(T);
  const auto slot_of = [base](std::size_t pos) { return (base + pos) % per_line; };
  const auto plain = [&](std::size_t k, std::size_t from, std::size_t to) {
    std::memcpy(static_cast<void*>(b + from), line[k] + slot_of(from) * sizeof(T),
                (to - from) * sizeof(T));
  };
  const stream_fence_guard fence;
  for (std::size_t i = lo; i < hi; ++i) {
    const std::size_t k = (key(a[i]) >> shift) & dmask;
    const std::size_t pos = c[k]++;
    if constexpr (Checked)
      if (pos >= lim[k]) [[unlikely]] return false;
    const std::size_t slot = slot_of(pos);
    std::memcpy(line[k] + slot * sizeof(T), static_cast<const void*>(a + i), sizeof(T));
    // The line holding pos starts at pos - slot (which may lie before b: compared as a sum).
    if (slot == per_line - 1) {
      if (pos >= first[k] + slot) [[likely]]
        stream_line(b + (pos - slot), line[k]);
      else
        plain(k, first[k], pos + 1);
    }
  }
  for (std::size_t k = 0; k < d; ++k) {
    const std::size_t end = c[k], slot = slot_of(end);
    if (end > first[k]) plain(k, end >= first[k] + slot ? end - slot : first[k], end);
  }
  return true;
}

// The per-tile histograms `count` (tiles rows of d) become each tile's first place per digit
// (in place), and start[0..d] the digits' bounds: an exclusive prefix in (digit, tile)
// order, so that equal digits keep the tiles' order (stability).
inline void radix_tile_offsets(std::size_t* count, std::size_t tiles, std::size_t d,
                               std::size_t* start) noexcept {
  constexpr std::size_t most = std::size_t(1) << radix_max_par_digit;
  std::size_t run[most];
  std::fill_n(start, d + 1, std::size_t(0));
  for (std::size_t t = 0; t < tiles; ++t)
    for (std::size_t i = 0; i < d; ++i) start[i + 1] += count[t * d + i];
  for (std::size_t i = 0; i < d; ++i) start[i + 1] += start[i];
  std::copy_n(start, d, run);
  for (std::size_t t = 0; t < tiles; ++t)
    for (std::size_t i = 0; i < d; ++i) {
      const std::size_t c = count[t * d + i];
      count[t * d + i] = run[i];
      run[i] += c;
    }
}

// The scatter of tiles [lo, hi) from a to b (offsets from radix_tile_offsets), streamed or
// with plain stores. Checked: returns false if the keys do not fill exactly the places the
// count pass gave the block (a key answered differently), having written only inside them.
template <bool Checked, class T, class KeyFn>
bool radix_scatter_tiles(T* a, T* b, std::size_t n, const radix_plan& p,
                         const std::size_t* count, const std::size_t* start, std::size_t lo,
                         std::size_t hi, bool stream, const KeyFn& key) noexcept(!Checked) {
  using U = decltype(key(a[0]));
  const std::size_t d = p.d;
  const U dmask = static_cast<U>(d - 1);
  // A local copy of the offsets: the compiler can see that the scatter's stores into b
  // never write it, which it cannot for the shared table when T is itself a size_t. The
  // tiles of a block are consecutive, and tile t + 1's part of a bucket follows tile t's,
  // so the row of tile lo serves the whole block, and the row of tile hi (or the digits'
  // ends) bounds it.
  constexpr std::size_t most = std::size_t(1) << radix_max_par_digit;
  std::size_t c[most];
  std::copy_n(count + lo * d, d, c);
  std::size_t lim[Checked ? most : 1];
  if constexpr (Checked) {
    if (hi < p.tiles)
      std::copy_n(count + hi * d, d, lim);
    else
      std::copy_n(start + 1, d, lim);
  }
  const std::size_t b_lo = lo * p.tile, b_hi = std::min(n, hi * p.tile);
  bool within = true;  // every key stayed inside its counted place (Checked)
  if constexpr (line_streamable_v<T>)
    if (stream)
      within = radix_scatter_streamed<Checked>(a, b, b_lo, b_hi, c, lim, d, p.shift, dmask, key);
  if (!stream || !line_streamable_v<T>) {
    for (std::size_t i = b_lo; i < b_hi; ++i) {
      const std::size_t k = (key(a[i]) >> p.shift) & dmask;
      if constexpr (Checked)
        if (c[k] >= lim[k]) [[unlikely]] return false;
      radix_put(b + c[k]++, a[i]);
    }
  }
  if constexpr (Checked) {
    if (!within) return false;
    for (std::size_t k = 0; k < d; ++k)
      if (c[k] != lim[k]) return false;
  }
  return true;
}

// The scatter of the counted digit from a to b, then the buckets sorted as independent
// sub-problems, the result where InPlace says. A bucket holding more than an eighth of the
// input (a skewed distribution) is sorted by radix_par afterwards. `count` holds the
// per-tile histograms (tiles * d, row per tile) and is overwritten. Ranges of at least
// `stream_min` bytes are written with streaming stores (see below).
template <bool InPlace, class T, class KeyFn>
void radix_par_scatter(T* a, T* b, std::size_t n, const radix_plan& p, std::size_t* count,
                       unsigned low, const KeyFn& key, std::size_t stream_min);

// As radix_seq, with the top digit's counting and scatter split over the pool.
template <bool InPlace, class T, class KeyFn>
void radix_par(T* a, T* b, std::size_t n, decltype(std::declval<KeyFn>()(std::declval<T&>())) mask,
               const KeyFn& key, std::size_t stream_min) {
  const unsigned top = static_cast<unsigned>(std::bit_width(mask));
  const unsigned low = static_cast<unsigned>(std::countr_zero(mask));
  const radix_plan p = radix_plan_for(n, top);
  if (n <= 2 * p.tile) {
    radix_seq<InPlace>(a, b, n, top, low, key);
    return;
  }
  // This runs on a bucket, after the input has been scattered: an allocation failure may not
  // throw here (the elements are split between a and b), so without memory the bucket is
  // sorted by the sequential kernel, which allocates nothing.
  std::unique_ptr<std::size_t[]> count(new (std::nothrow) std::size_t[p.tiles * p.d]());
  if (!count) {
    radix_seq<InPlace>(a, b, n, top, low, key);
    return;
  }
  radix_count_tiles(a, n, p, count.get(), key);
  radix_par_scatter<InPlace>(a, b, n, p, count.get(), low, key, stream_min);
}

// Inputs that would not stay in cache anyway are written with streaming stores: the scatter
// through line buffers, the sorted buckets copied out of a cache-warm buffer. Not with few
// digits: a few streams of plain stores are cheap, and the buckets are often moved back at
// once (keys that differ only there), from cache if b was written plainly (20 M keys of 4 to
// 16 values, one thread: 107-124 ms plain, 136-166 ms streamed; of 32 values 158 against
// 137 ms, 64 values 231 against 163 ms).
template <class T>
bool radix_streams(const T* b, std::size_t n, const radix_plan& p,
                   std::size_t stream_min) noexcept {
  if constexpr (line_streamable_v<T>)
    return n * sizeof(T) >= stream_min && p.d >= radix_stream_min_digits &&
           reinterpret_cast<std::uintptr_t>(b) % sizeof(T) == 0;
  else
    return false;
}

template <bool InPlace, class T, class KeyFn>
void radix_par_scatter(T* a, T* b, std::size_t n, const radix_plan& p, std::size_t* count,
                       unsigned low, const KeyFn& key, std::size_t stream_min) {
  using U = decltype(key(a[0]));
  const std::size_t d = p.d, tile = p.tile;
  const unsigned shift = p.shift;
  // On the stack: nothing from here on may throw (see radix_par).
  std::size_t start[(std::size_t(1) << radix_max_par_digit) + 1];
  radix_tile_offsets(count, p.tiles, d, start);
  const bool stream = radix_streams(b, n, p, stream_min);
  for_blocks(p.tiles, [&](std::size_t lo, std::size_t hi) {
    radix_scatter_tiles<false>(a, b, n, p, count, start, lo, hi, stream, key);
  });
  const std::size_t big = std::max(n / 8, 2 * tile);
  for_blocks(d, [&](std::size_t lo, std::size_t hi) {
    // A buffer for the bucket sorts of this block, reused bucket after bucket so that it
    // stays in cache: their first pass writes there rather than into cold memory, and their
    // last writes the result. Without it (no memory), they run on a and b alone. When
    // streaming, the buffer is twice as long: the last pass writes its second half, which is
    // then streamed to a (no read of a's lines, and one sequential write instead of a
    // scattered one; 20 M random u64, one thread: the bucket sorts 170 ms -> 134 ms).
    std::size_t cap = 0;
    if constexpr (InPlace)
      for (std::size_t i = lo; i < hi; ++i) {
        const std::size_t m = start[i + 1] - start[i];
        if (m <= radix_lsd_max && m > cap) cap = m;
      }
    const radix_spare<T> spare(shift > low ? (stream ? 2 * cap : cap) : 0);
    const stream_fence_guard fence;
    for (std::size_t i = lo; i < hi; ++i) {
      const std::size_t s = start[i], m = start[i + 1] - s;
      if (m == 0 || m > big) continue;
      if (shift <= low) {
        if constexpr (InPlace) radix_move_all(a + s, b + s, m);
      } else if (spare.p && m > radix_small && m <= radix_lsd_max) {
        if constexpr (line_streamable_v<T>) {
          if (stream) {
            radix_lsd_to(b + s, spare.p + cap, spare.p, m, shift, low, key);
            stream_copy(a + s, spare.p + cap, m);
            continue;
          }
        }
        radix_lsd_to(b + s, a + s, spare.p, m, shift, low, key);
      } else {
        radix_seq<!InPlace>(b + s, a + s, m, shift, low, key);
      }
    }
  });
  for (std::size_t i = 0; i < d; ++i) {
    const std::size_t s = start[i], m = start[i + 1] - s;
    if (m <= big) continue;
    U sub = 0;
    if (shift > low) {
      sub = radix_diff_mask(b + s, m, key);
      sub &= static_cast<U>((U(1) << shift) - 1);
    }
    if (sub != 0) {
      radix_par<!InPlace>(b + s, a + s, m, sub, key, stream_min);
    } else if constexpr (InPlace) {
      for_blocks(m, [&](std::size_t lo, std::size_t hi) {
        radix_move_all(a + s + lo, b + s + lo, hi - lo);
      });
    }
  }
}

// Settles a surveyed input that needs no sort: true when it is in order (nothing to do) or
// in reverse order (strictly, when `stable`), which is then reversed here.
template <class T, class U>
bool radix_settle(T* a, std::size_t n, const radix_survey<U>& s, bool stable) {
  if (s.asc || s.mask == 0) return true;
  if (stable ? s.sdesc : s.desc) {
    for_blocks(n / 2, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) std::swap(a[i], a[n - 1 - i]);
    });
    return true;
  }
  return false;
}

// The plan of the top digit from a sample of the keys (the first ones and a strided set).
template <class T, class KeyFn>
radix_plan radix_sample_plan(const T* a, std::size_t n, const KeyFn& key) {
  using U = decltype(key(a[0]));
  const U k0 = key(a[0]);
  constexpr std::size_t samples = 1024;
  U smask = 0;
  for (std::size_t i = 0; i < std::min(n, samples); ++i) smask |= static_cast<U>(key(a[i]) ^ k0);
  for (std::size_t i = 0; i < samples; ++i) smask |= static_cast<U>(key(a[i * (n / samples)]) ^ k0);
  return radix_plan_for(n, std::max(1u, static_cast<unsigned>(std::bit_width(smask))));
}

// What the first pass of a large radix sort finds: the input settled (nothing left to do), or
// small enough after all for the sequential kernel on bits [low, top), or the top digit's
// plan with every tile counted for the parallel scatter.
struct radix_first_pass {
  enum { settled, sequential, parallel } next;
  radix_plan p;
  unsigned top, low;
  std::unique_ptr<std::size_t[]> count;
};

// The fused pass over fixed tiles of an input of more than two tiles of plan p (from
// radix_sample_plan): per tile, the histogram of the top digit and the survey (differing
// bits, order). When the full survey finds a higher differing bit than the sample did, the
// digit moves and the keys are counted again. Calls key on every element before any moves;
// an exception from it leaves the input untouched.
template <class T, class KeyFn>
radix_first_pass radix_count_first(T* a, std::size_t n, radix_plan p, const KeyFn& key,
                                   bool stable) {
  using U = decltype(key(a[0]));
  const U k0 = key(a[0]);
  // The counters are left uninitialised: each tile zeroes its row when it starts counting,
  // so a sorted input never touches (never faults in) this memory.
  std::unique_ptr<std::size_t[]> count(new std::size_t[p.tiles * p.d]);
  std::vector<radix_block_survey<U>> tile_survey(p.tiles);
  const U dmask = static_cast<U>(p.d - 1);
  for_blocks(p.tiles, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t t = lo; t < hi; ++t)
      tile_survey[t] = radix_survey_block(a, t * p.tile, std::min(n, (t + 1) * p.tile), k0, key,
                                          count.get() + t * p.d, p.shift, dmask);
  });
  radix_survey<U> s = tile_survey[0].s;
  for (std::size_t t = 1; t < p.tiles; ++t) s = radix_survey_join(s, tile_survey[t].s);
  if (radix_settle(a, n, s, stable)) return {radix_first_pass::settled, p, 0, 0, nullptr};
  const unsigned top = static_cast<unsigned>(std::bit_width(s.mask));
  const unsigned low = static_cast<unsigned>(std::countr_zero(s.mask));
  if (top == p.shift + p.w) {
    // The tiles found in order were not counted (see radix_survey_block): count them now.
    for_blocks(p.tiles, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t t = lo; t < hi; ++t) {
        if (tile_survey[t].counted) continue;
        std::size_t* c = count.get() + t * p.d;
        std::fill_n(c, p.d, std::size_t(0));
        const std::size_t e = std::min(n, (t + 1) * p.tile);
        for (std::size_t i = t * p.tile; i < e; ++i) ++c[(key(a[i]) >> p.shift) & dmask];
      }
    });
  } else {
    p = radix_plan_for(n, top);
    if (n <= 2 * p.tile) return {radix_first_pass::sequential, p, top, low, nullptr};
    count.reset(new std::size_t[p.tiles * p.d]());
    radix_count_tiles(a, n, p, count.get(), key);
  }
  return {radix_first_pass::parallel, p, top, low, std::move(count)};
}

// Sorts [a, a + n) by key. Stable. Returns without touching the input when it is already in
// order; reverses it when it is in reverse order (strictly, when `stable`).
//
// Large inputs take one fused pass (radix_count_first), one parallel scatter on the top
// digit, and the buckets' sorts. The parallel passes write with streaming stores from
// `stream_min` bytes of input up (the tests lower it to reach that path with small inputs).
template <class T, class KeyFn>
void radix_sort(T* a, std::size_t n, const KeyFn& key, bool stable,
                std::size_t stream_min = stream_min_bytes) {
  static_assert(noexcept(key(a[0])), "radix_sort moves elements between key calls");
  if (n < 2) return;
  if (n <= radix_small) {
    radix_insertion(a, n, key);
    return;
  }
  const radix_plan sampled = radix_sample_plan(a, n, key);
  if (n <= 2 * sampled.tile) {
    const auto s = radix_survey_of(a, n, key);
    if (radix_settle(a, n, s, stable)) return;
    scratch<T> buf(n);
    radix_seq<true>(a, buf.data(), n, static_cast<unsigned>(std::bit_width(s.mask)),
                    static_cast<unsigned>(std::countr_zero(s.mask)), key);
    return;
  }
  radix_first_pass f = radix_count_first(a, n, sampled, key, stable);
  if (f.next == radix_first_pass::settled) return;
  scratch<T> buf(n);
  if (f.next == radix_first_pass::sequential)
    radix_seq<true>(a, buf.data(), n, f.top, f.low, key);
  else
    radix_par_scatter<true>(a, buf.data(), n, f.p, f.count.get(), f.low, key, stream_min);
}

}  // namespace weft::detail::algo
