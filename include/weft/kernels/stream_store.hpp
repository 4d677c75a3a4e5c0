// SPDX-License-Identifier: MIT
// Non-temporal ("streaming") stores for outputs far larger than the caches.
//
// A plain store to a line that is not in cache first reads the line from memory (read for
// ownership), so writing an output of B bytes that will not stay cached moves 2B bytes over
// the memory bus. A streaming store writes whole 16-byte pieces through write-combining
// buffers without reading the line: B bytes. For a memory-bound pass such as a scan of
// int64 (read n, write n) that is 3 units of traffic down to 2, the difference between a
// parallel scan that cannot beat the sequential one and one that does (docs/algorithms.md).
// The scan streams its outputs a line of values at a time (stream_line_values); the radix
// sort streams its scatter and its sorted buckets from line buffers (below).
//
// Streaming stores are weakly ordered: neither a later release store nor a lock orders them.
// Every run of them ends with stream_fence() (an sfence) on the thread that issued them,
// before that thread publishes anything (a look-back prefix, a join's completion) and on
// the exception path too (stream_fence_guard), so the output is visible to whoever
// synchronises with that thread afterwards, exactly as plain stores would be.
//
//   | op                               | order             | why                           |
//   |----------------------------------|-------------------|-------------------------------|
//   | stream_line(_values) (movntdq)   | weakly ordered    | no read for ownership; other  |
//   |                                  |                   | threads need S1 to see it     |
//   | S1 stream_fence (sfence), at the | full store fence  | orders every earlier streamed |
//   | end of each run, throw included  |                   | store before the thread's     |
//   |                                  |                   | next release (prefix, join)   |
//
// Below stream_min_bytes of output the stores stay plain: a smaller output is likely still
// in cache when the caller reads it, and streaming would evict it. Above it, whether
// streaming pays depends on the machine: each call site learns it from its own calls
// (run_choosing_stores_at, at the end of this file, and its record in
// plumbing/learned_cost.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "weft/plumbing/learned_cost.hpp"
#include "weft/pool.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace weft::detail::algo {

inline constexpr std::size_t stream_min_bytes = std::size_t{16} << 20;
inline constexpr std::size_t stream_line_bytes = 64;

#if defined(__SSE2__)
inline constexpr bool stream_stores_available = true;
#else
inline constexpr bool stream_stores_available = false;
#endif

// Values that may be written as raw bytes, 16 / sizeof(T) to a streaming store.
template <class T>
inline constexpr bool streamable_v =
    stream_stores_available && std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);

template <class T>
bool line_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % stream_line_bytes == 0;
}

// Writes the 64 / sizeof(T) values `v` to the 64-byte aligned line at `dst` without reading
// it: four 16-byte streaming stores back to back, each assembled from registers (storing the
// values to memory and loading them as vectors would stall on store forwarding every time).
// A line's four stores come together on purpose: interleaved with the loop's loads, one
// 16-byte piece at a time, the same scan of 50 M int64 takes 27-31 ms instead of 24-25 on an
// AMD EPYC family 25 (a bare-loop driver, one thread; docs/algorithms.md#scans), as if the
// write-combining buffer of a line were often written out before it was full.
template <class T>
inline void stream_line_values(T* dst, const T (&v)[stream_line_bytes / sizeof(T)]) {
#if defined(__SSE2__)
  auto* d = reinterpret_cast<__m128i*>(dst);
  for (std::size_t j = 0; j < 4; ++j) {
    __m128i x;
    if constexpr (sizeof(T) == 8)
      x = _mm_set_epi64x(std::bit_cast<long long>(v[2 * j + 1]),
                         std::bit_cast<long long>(v[2 * j]));
    else
      x = _mm_set_epi32(std::bit_cast<int>(v[4 * j + 3]), std::bit_cast<int>(v[4 * j + 2]),
                        std::bit_cast<int>(v[4 * j + 1]), std::bit_cast<int>(v[4 * j]));
    _mm_stream_si128(d + j, x);
  }
#else
  std::memcpy(dst, v, stream_line_bytes);
#endif
}

// --- lines gathered in memory (the radix sort) -----------------------------------------------
//
// The radix sort's scatter writes to a thousand places at once; it gathers each place's
// elements in a line-sized buffer and streams the buffer once it fills (stream_line), and its
// bucket sorts stream their finished buckets out of cache (stream_copy). Only whole lines
// that the writing thread owns entirely are streamed: a line shared with a neighbour's range
// is written with plain stores, so no line ever receives streaming and plain stores from two
// threads.
// Elements whose copy is a copy of their bytes (a trivial copy constructor, a trivial
// destructor) and that tile a line exactly.
template <class T>
inline constexpr bool line_streamable_v =
    stream_stores_available && std::is_trivially_copy_constructible_v<T> &&
    std::is_trivially_destructible_v<T> && sizeof(T) <= stream_line_bytes &&
    stream_line_bytes % sizeof(T) == 0;

// Writes the 64 bytes at `src` (any alignment) to the line at `dst` (64-byte aligned)
// without reading that line.
inline void stream_line(void* dst, const void* src) {
#if defined(__SSE2__)
  const auto* s = static_cast<const __m128i*>(src);
  auto* d = static_cast<__m128i*>(dst);
  _mm_stream_si128(d, _mm_loadu_si128(s));
  _mm_stream_si128(d + 1, _mm_loadu_si128(s + 1));
  _mm_stream_si128(d + 2, _mm_loadu_si128(s + 2));
  _mm_stream_si128(d + 3, _mm_loadu_si128(s + 3));
#else
  std::memcpy(dst, src, stream_line_bytes);
#endif
}

// How many of the n elements at p come before p's first whole line (n when p is not
// aligned to its element size: then no line is streamed).
template <class T>
std::size_t items_before_line(const T* p, std::size_t n) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  if (at % sizeof(T) != 0) return n;
  const std::size_t misalign = at % stream_line_bytes;
  return std::min(n, misalign == 0 ? 0 : (stream_line_bytes - misalign) / sizeof(T));
}

// Copies [from, from + n) to the disjoint [to, to + n): the lines wholly inside the
// destination streamed, the partial lines at its ends with plain stores.
template <class T>
void stream_copy(T* to, const T* from, std::size_t n) {
  static_assert(line_streamable_v<T>);
  std::size_t k = items_before_line(to, n);
  std::memcpy(static_cast<void*>(to), static_cast<const void*>(from), k * sizeof(T));
  constexpr std::size_t per_line = stream_line_bytes / sizeof(T);
  for (; k + per_line <= n; k += per_line) stream_line(to + k, from + k);
  std::memcpy(static_cast<void*>(to + k), static_cast<const void*>(from + k), (n - k) * sizeof(T));
}

inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

struct stream_fence_guard {
  stream_fence_guard() = default;
  stream_fence_guard(const stream_fence_guard&) = delete;
  stream_fence_guard& operator=(const stream_fence_guard&) = delete;
  ~stream_fence_guard() { stream_fence(); }
};

// Elements that may be produced into a line buffer on the stack and streamed from it:
// trivial (the buffer needs no construction, a copy is a copy of bytes), tiling a line.
template <class T>
inline constexpr bool line_fillable_v = line_streamable_v<T> && std::is_trivial_v<T>;

// Writes [out, out + n): produce(d, from, to) writes the values of positions [from, to) at
// d, d + 1, ... Each whole line of the output is produced into a line buffer and streamed;
// the positions before the first whole line and after the last one are produced in place
// with plain stores. Ends with S1 (stream_fence), thrown exceptions included. The buffer is
// read back element by element where elements are 4 or 8 bytes: a 16-byte load of two
// values that produce stored one at a time cannot be forwarded from the store queue and
// waits for both stores to reach the cache (a branchy transform of 50 M doubles at two
// threads: 16.4 ms reading 16-byte pieces, 12.1 element by element).
template <class T, class Produce>
void stream_fill(T* out, std::size_t n, const Produce& produce) {
  static_assert(line_fillable_v<T>);
  constexpr std::size_t per_line = stream_line_bytes / sizeof(T);
  const stream_fence_guard fence;
  std::size_t i = items_before_line(out, n);
  if (i > 0) produce(out, std::size_t{0}, i);
  alignas(stream_line_bytes) T line[per_line];
  for (; i + per_line <= n; i += per_line) {
    produce(+line, i, i + per_line);
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8)
      stream_line_values(out + i, line);  // loads of produce's store size: they forward
    else
      stream_line(out + i, line);
  }
  if (i < n) produce(out + i, i, n);
}

// --- whether to stream: learned per call site -------------------------------------------
//
// Streaming saves the read of each output line, which is what memory-bound passes wait on
// where the read is not free: on an AMD EPYC family 25 the streamed scan and transform beat
// plain stores by 25-30%. On an EPYC family 26 plain stores are as fast as streamed ones
// in a bare loop (50 M doubles, 1 thread: 23-26 ms either way), and the streamed passes,
// which produce each line into a buffer first, lose 10-35% at one thread
// (docs/algorithms.md#element-wise-writes). So a pass whose output may stream
// (for_output_blocks, the scan, an indexed to_vector) asks its call site's record: its
// learned_choice for the pool's size (plumbing/learned_cost.hpp says how it chooses; the
// second way is streaming). Its window of four calls matters here: the first write of a
// freshly filled 400 MB vector can take 355-775 ms against 25-40 for the next ones, so one
// slow call, or three, does not decide. (The alternative, the best call aged by 25 % a
// call, lets one slow call of the kind in use hand the site to the other kind until the
// next resample, 16 calls later: a scan at two threads in a benchmark-shaped driver runs at
// 0.90-1.01x of sequential with it, against 0.82x with plain stores forced.) What the saved
// reads are worth depends on how many threads share the memory bus: on an AMD EPYC family
// 26 plain stores win at one thread, and a scan at two threads keeps switching kinds when
// one choice serves both: hence a choice per size of pool.
//   C1  (plumbing/learned_cost.hpp) The record is a hint: a stale view only picks the
//       slower stores for a call.
//   C2  The choice changes no result: both write the same bytes, and a streamed run ends
//       with its fence (S1) whichever way the next call goes.
template <class... Keys>
struct stream_site;

// Tests pin the kind of store on their thread (force_stores): every pass that thread runs
// whose output could stream takes that kind, whatever the output's size, and leaves its
// record alone. -1: the size and the record choose.
inline constinit thread_local int forced_stores = -1;

struct force_stores {
  explicit force_stores(bool stream) noexcept : saved(forced_stores) {
    forced_stores = stream ? 1 : 0;
  }
  force_stores(const force_stores&) = delete;
  force_stores& operator=(const force_stores&) = delete;
  ~force_stores() { forced_stores = saved; }
  int saved;
};

// Runs run(stream) for an output of `bytes` that streaming stores could write, with the
// kind of store its record chooses, and records what that call cost. A call that throws
// records nothing.
template <class Run>
void run_choosing_stores(learned_choice& record, std::size_t bytes, const Run& run) {
  if (forced_stores >= 0) return run(forced_stores == 1);
  const bool stream = record.choose();
  const auto start = std::chrono::steady_clock::now();
  run(stream);
  record.record(stream, bytes, std::chrono::steady_clock::now() - start);
}

// The one decision for a pass of call site Site whose output of `bytes` could stream: plain
// stores below stream_min_bytes, else the choice of Site's record for the calling thread's
// pool (or the kind a test pinned, at any size).
template <class Site, class Run>
void run_choosing_stores_at(std::size_t bytes, const Run& run) {
  if (forced_stores < 0 && bytes < stream_min_bytes) return run(false);
  run_choosing_stores(site_record<Site>.choice_for(weft::num_threads()), bytes, run);
}

}  // namespace weft::detail::algo
