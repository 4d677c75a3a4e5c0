// SPDX-License-Identifier: MIT
// The radix path for a projection that may throw. Nothing may be lost when it throws, and
// nothing may be trusted about a second call on the same element (a projection that throws
// or answers differently on its n + 1st call is no regular function, but it must not crash
// the sort or lose an element):
// - the checked path (elements copied as bytes, radix_copied_v; more than two tiles): the
//   radix sort's own first pass calls the projection on every element before anything
//   moves; the top digit's scatter copies the input into scratch (the input stays whole)
//   and checks that every key lands inside the place the count gave it; each bucket then
//   extracts its keys once, in cache, into (key, element) records, sorts them and writes
//   the elements back. Its cost over a noexcept projection is the buckets' record pass, in
//   cache (20 M (u32, u32) pairs: within 1 % of `&pair::first`).
// - the records path (everything else, and the fallback when a key answered differently):
//   every key is extracted into a scratch array of (key, element) records before any element
//   moves, the records are radix-sorted, and the elements move back.
// Design and measurements: docs/algorithms.md#sort
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <type_traits>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/radix_sort.hpp"
#include "weft/kernels/scratch.hpp"
#include "weft/kernels/stream_store.hpp"

namespace weft::detail::algo {

// One element and its extracted key, side by side so that the radix scatters move them
// together.
template <class K, class T>
struct keyed_element {
  K key;
  T value;
};

// Elements whose copy and move are copies of their bytes, leaving the source as it was (the
// checked path copies the input into scratch and must be able to abandon the copy).
template <class T>
inline constexpr bool radix_copied_v = std::is_trivially_copy_constructible_v<T> &&
                                       std::is_trivially_move_constructible_v<T> &&
                                       std::is_trivially_destructible_v<T>;

// The first exception of a parallel pass whose tasks let none escape: every task finishes
// its part (putting its elements back where the pass needs them), and the caller rethrows
// once the pass has returned.
//
// Invariants:
// - `error` is written once, by the one task whose exchange on `taken` returned false, and
//   read only by the caller after the pass (its for_blocks) returned.
//
// Atomic orderings:
// | operation                   | order   | reason                                            |
// |-----------------------------|---------|---------------------------------------------------|
// | record: taken.exchange(true) | relaxed | elects the one writer of `error`; publishes       |
// |                             |         | nothing: the pass's joins order the write before  |
// |                             |         | the caller's read                                 |
struct first_error {
  std::atomic<bool> taken{false};
  std::exception_ptr error;

  void record() noexcept {
    if (!taken.exchange(true, std::memory_order_relaxed)) error = std::current_exception();
  }
  void rethrow_if_any() const {
    if (error) std::rethrow_exception(error);
  }
};

// The records path: sorts [a, a + n) (n >= 2) by key (a radix_key_fn whose projection may
// throw); stable. An exception from key propagates from the extraction pass, before any
// element has moved: the input is then untouched. Elements: radix_movable_v.
template <class T, class KeyFn>
void radix_sort_records(T* a, std::size_t n, const KeyFn& key, bool stable) {
  using U = typename KeyFn::uint_type;
  using R = keyed_element<U, T>;
  scratch<R> recs(n);
  R* const r = recs.data();
  for_blocks(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) ::new (static_cast<void*>(&r[i].key)) U(key(a[i]));
  });
  for_blocks(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) radix_put(&r[i].value, a[i]);
  });
  radix_sort(r, n, [](const R& x) noexcept { return x.key; }, stable);
  for_blocks(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) radix_put(a + i, r[i].value);
  });
}

// Copies the m sorted elements at `sorted` to `to`: streamed when `stream` (plain stores
// would first read every line of `to`), as radix_par_scatter's buckets are.
template <class T>
void radix_keyed_out(const T* sorted, T* to, std::size_t m, bool stream) noexcept {
  if constexpr (line_streamable_v<T>) {
    if (stream) {
      stream_copy(to, sorted, m);
      return;
    }
  }
  for (std::size_t i = 0; i < m; ++i) ::new (static_cast<void*>(to + i)) T(sorted[i]);
}

// The LSD passes of radix_lsd_to for elements whose keys sit in an array of their own: the
// elements from[0, m), their keys k[0, m), which differ only on bits [low, top), at most
// radix_lsd_exact of them (so the passes sort exactly). t has room for 2 m elements, k for
// 2 m keys. Each pass moves the keys beside the elements, but the last. Returns where the
// sorted elements are: from (the keys all agree), t or t + m.
template <class T, class U>
const T* radix_lsd_keyed(const T* from, T* t, U* k, std::size_t m, unsigned top,
                         unsigned low) noexcept {
  constexpr unsigned max_passes = (radix_lsd_exact + radix_max_digit - 1) / radix_max_digit;
  const unsigned span = top - low;
  const unsigned passes = (span + radix_max_digit - 1) / radix_max_digit;
  const unsigned w = (span + passes - 1) / passes;
  const unsigned wlow = top - std::min(top, w * passes);
  const std::size_t d = std::size_t(1) << w;
  const U dmask = static_cast<U>(d - 1);
  std::uint32_t count[max_passes][std::size_t(1) << radix_max_digit];
  for (unsigned p = 0; p < passes; ++p) std::fill_n(count[p], d, 0u);
  for (std::size_t i = 0; i < m; ++i) {
    const U x = static_cast<U>(k[i] >> wlow);
    for (unsigned p = 0; p < passes; ++p) ++count[p][(x >> (p * w)) & dmask];
  }
  const T* es = from;
  U* ks = k;
  T* et = t;
  U* kt = k + m;
  for (unsigned p = 0; p < passes; ++p) {
    const unsigned sh = wlow + p * w;
    std::uint32_t* c = count[p];
    if (c[(ks[0] >> sh) & dmask] == m) continue;  // every key has this digit
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < d; ++i) sum += std::exchange(c[i], sum);
    bool last = true;
    for (unsigned q = p + 1; q < passes; ++q) last &= count[q][(ks[0] >> (wlow + q * w)) & dmask] == m;
    if (last) {
      for (std::size_t i = 0; i < m; ++i)
        ::new (static_cast<void*>(et + c[(ks[i] >> sh) & dmask]++)) T(es[i]);
    } else {
      for (std::size_t i = 0; i < m; ++i) {
        const std::uint32_t pos = c[(ks[i] >> sh) & dmask]++;
        ::new (static_cast<void*>(et + pos)) T(es[i]);
        kt[pos] = ks[i];
      }
    }
    es = et;
    et = et == t ? t + m : t;
    std::swap(ks, kt);
  }
  return es;
}

// The room of one block's bucket sorts, the longest `cap` elements: with `exact` (keys that
// differ on at most radix_lsd_exact bits below the digit) elements and keys in arrays of
// their own, 2 cap each (radix_lsd_keyed); otherwise 2 cap (key, element) records for
// radix_seq. Null pointers when there is no memory.
template <class T, class U>
struct keyed_bucket_room {
  radix_spare<T> elems;
  radix_spare<U> keys;
  radix_spare<keyed_element<U, T>> recs;
  keyed_bucket_room(std::size_t cap, bool exact) noexcept
      : elems(exact ? 2 * cap : 0), keys(exact ? 2 * cap : 0), recs(exact ? 0 : 2 * cap) {}
  bool ready() const noexcept { return (elems.p && keys.p) || recs.p; }
};

// One bucket of the checked path: its m elements in `from` (2 <= m <= radix_lsd_max, no
// longer than the room's cap) sorted into `to` on bits [low, top) of their keys. The keys
// are extracted first: when that throws, `from` and `to` are untouched. Elements:
// radix_copied_v.
template <class T, class KeyFn>
void radix_keyed_bucket(const T* from, T* to, std::size_t m, unsigned top, unsigned low,
                        const keyed_bucket_room<T, typename KeyFn::uint_type>& room, bool stream,
                        const KeyFn& key) {
  using U = typename KeyFn::uint_type;
  using R = keyed_element<U, T>;
  if (room.keys.p) {
    U* const k = room.keys.p;
    for (std::size_t i = 0; i < m; ++i) k[i] = key(from[i]);
    radix_keyed_out(radix_lsd_keyed(from, room.elems.p, k, m, top, low), to, m, stream);
    return;
  }
  R* const r = room.recs.p;
  for (std::size_t i = 0; i < m; ++i) ::new (static_cast<void*>(r + i)) R{key(from[i]), from[i]};
  radix_seq<false>(r, r + m, m, top, low, [](const R& x) noexcept { return x.key; });
  // The sorted elements gathered into r's first half, free by now, to be copied out whole.
  T* const sorted = static_cast<T*>(static_cast<void*>(r));
  for (std::size_t i = 0; i < m; ++i) ::new (static_cast<void*>(sorted + i)) T(r[m + i].value);
  radix_keyed_out(sorted, to, m, stream);
}

template <class T, class KeyFn>
void keyed_radix_sort(T* a, std::size_t n, const KeyFn& key, bool stable, unsigned depth = 0,
                      std::size_t stream_min = stream_min_bytes);

// The checked path (see the top of this file) of [a, a + n), which has been counted
// (radix_count_first's `f`, parallel). Returns false, the input untouched, when a key
// answered differently in the scatter than in the count; throws the first exception of the
// projection with [a, a + n) a permutation of its input.
template <class T, class KeyFn>
bool radix_scatter_checked(T* a, std::size_t n, const radix_first_pass& f, const KeyFn& key,
                           bool stable, unsigned depth, std::size_t stream_min) {
  static_assert(radix_copied_v<T>);
  using U = typename KeyFn::uint_type;
  const radix_plan& p = f.p;
  const std::size_t d = p.d;
  scratch<T> buf(n);
  T* const b = buf.data();
  std::size_t start[(std::size_t(1) << radix_max_par_digit) + 1];
  radix_tile_offsets(f.count.get(), p.tiles, d, start);
  const bool stream = radix_streams(b, n, p, stream_min);
  first_error fail;
  std::atomic<bool> answered_differently{false};
  // The scatter copies (radix_copied_v): a stays whole whatever happens here.
  for_blocks(p.tiles, [&](std::size_t lo, std::size_t hi) {
    try {
      if (!radix_scatter_tiles<true>(a, b, n, p, f.count.get(), start, lo, hi, stream, key))
        answered_differently.store(true, std::memory_order_relaxed);
    } catch (...) {
      fail.record();
    }
  });
  fail.rethrow_if_any();
  if (answered_differently.load(std::memory_order_relaxed)) return false;
  // Every bucket's elements are in b. A bucket that cannot be sorted in cache (longer than
  // radix_lsd_max, or no memory for its records) is copied back and sorted by this file's
  // sort on its own. One whose keys throw is copied back unsorted.
  const unsigned shift = p.shift;
  for_blocks(d, [&](std::size_t lo, std::size_t hi) {
    std::size_t cap = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const std::size_t m = start[i + 1] - start[i];
      if (m <= radix_lsd_max && m > cap) cap = m;
    }
    const keyed_bucket_room<T, U> room(shift > f.low ? cap : 0, shift - f.low <= radix_lsd_exact);
    const stream_fence_guard fence;
    for (std::size_t i = lo; i < hi; ++i) {
      const std::size_t s = start[i], m = start[i + 1] - s;
      const bool in_cache = shift > f.low && m > 1 && m <= radix_lsd_max && room.ready();
      try {
        if (in_cache) {
          radix_keyed_bucket(b + s, a + s, m, shift, f.low, room, stream, key);
        } else {
          radix_move_all(a + s, b + s, m);
          if (shift > f.low && m > 1)
            keyed_radix_sort(a + s, m, key, stable, depth + 1, stream_min);
        }
      } catch (...) {
        fail.record();
        // radix_keyed_bucket throws before it writes a (b + s still holds the bucket);
        // keyed_radix_sort leaves a + s a permutation of the bucket.
        if (in_cache) radix_move_all(a + s, b + s, m);
      }
    }
  });
  fail.rethrow_if_any();
  return true;
}

// Sorts the contiguous [a, a + n) by key, a radix_key_fn whose projection may throw; stable.
// An exception from the projection's first call on each element propagates before any
// element has moved: the input is then untouched. Any later exception propagates with the
// range a permutation of its input. Elements: radix_movable_v.
// `depth` counts the checked path's nesting (a bucket too long for the cache sorted by this
// function): each level has fewer differing key bits than the one above, so more levels
// than key bits mean the projection answers differently, and the records path takes over.
// The scatter streams from `stream_min` bytes up (radix_sort; the tests lower it).
template <class T, class KeyFn>
void keyed_radix_sort(T* a, std::size_t n, const KeyFn& key, bool stable, unsigned depth,
                      std::size_t stream_min) {
  if (n < 2) return;
  if constexpr (radix_copied_v<T>) {
    const radix_plan sampled = radix_sample_plan(a, n, key);
    if (n > 2 * sampled.tile && depth <= sizeof(typename KeyFn::uint_type) * 8) {
      const radix_first_pass f = radix_count_first(a, n, sampled, key, stable);
      if (f.next == radix_first_pass::settled) return;
      if (f.next == radix_first_pass::parallel &&
          radix_scatter_checked(a, n, f, key, stable, depth, stream_min))
        return;
    }
  }
  radix_sort_records(a, n, key, stable);
}

}  // namespace weft::detail::algo
