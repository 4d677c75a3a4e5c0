// SPDX-License-Identifier: MIT
// The scan kernel: inclusive / exclusive, with or without a transform, as a chunker of the
// single-pass look-back machinery (kernels/lookback.hpp).
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/lookback.hpp"
#include "weft/kernels/stream_store.hpp"

namespace weft::detail::algo {

struct identity_fn {
  template <class X>
  constexpr X&& operator()(X&& x) const noexcept {
    return std::forward<X>(x);
  }
};

// Whether a scan into Out can write its accumulators with streaming stores.
template <class T, class Out>
inline constexpr bool scan_can_stream =
    streamable_v<T> && std::contiguous_iterator<Out> && std::is_same_v<std::iter_value_t<Out>, T>;

// Every element is read before its output is written, so d_first == first is safe.
template <class T, bool Exclusive, class In, class Out, class Op, class Un>
struct scan_chunker {
  struct scratch {};
  In in;
  Out out;
  Op& op;
  Un& un;
  bool stream = false;  // write through streaming stores (stream_store.hpp)

  T combine(T a, T b) const { return op(std::move(a), std::move(b)); }

  T reduce(std::size_t lo, std::size_t hi, scratch&) const { return aggregate(lo, hi); }

  T aggregate(std::size_t lo, std::size_t hi) const {
    In it = detail::algo::advance(in, lo);
    const In end = detail::algo::advance(in, hi);
    T acc = un(*it);
    for (++it; it != end; ++it) acc = op(std::move(acc), un(*it));
    return acc;
  }

  void scan(std::size_t lo, std::size_t hi, std::optional<T>& carry, scratch&, bool) const {
    In it = detail::algo::advance(in, lo);
    const In end = detail::algo::advance(in, hi);
    Out o = detail::algo::advance(out, lo);
    if constexpr (!Exclusive) {
      if (!carry) {  // the very first element of an inclusive scan without init
        carry.emplace(un(*it));
        *o = *carry;
        ++it;
        ++o;
      }
    }
    T acc = std::move(*carry);
    if constexpr (scan_can_stream<T, Out>) {
      if (stream) {
        *carry = scan_streaming(it, end, std::to_address(o), std::move(acc));
        return;
      }
    }
    for (; it != end; ++it, ++o) {
      if constexpr (Exclusive) {
        T v = un(*it);
        *o = acc;
        acc = op(std::move(acc), std::move(v));
      } else {
        acc = op(std::move(acc), un(*it));
        *o = acc;
      }
    }
    *carry = std::move(acc);
  }

  // The output at `it` given acc = the aggregate before it; advances acc and it. (Arithmetic
  // T only: the plain loop above assigns into the output instead, reusing its storage.)
  T step(T& acc, In& it) const {
    if constexpr (Exclusive) {
      T v = un(*it);
      ++it;
      T r = acc;
      acc = op(std::move(acc), std::move(v));
      return r;
    } else {
      acc = op(std::move(acc), un(*it));
      ++it;
      return acc;
    }
  }

  // The scan loop with its outputs gathered a cache line at a time and streamed; plain
  // stores before the first whole line and after the last one, so a line that another
  // chunk's writer shares is never streamed.
  T scan_streaming(In it, const In end, T* o, T acc) const {
    constexpr std::size_t k = stream_line_bytes / sizeof(T);
    const stream_fence_guard fence;
    std::size_t left = detail::algo::distance(it, end);
    for (; left > 0 && !line_aligned(o); --left) *o++ = step(acc, it);
    for (; left >= k; left -= k, o += k) {
      T line[k];
      for (std::size_t j = 0; j < k; ++j) line[j] = step(acc, it);
      stream_line_values(o, line);
    }
    for (; left > 0; --left) *o++ = step(acc, it);
    return acc;
  }
};

/// Scans [first, last) into d_first in one pass over memory; `init` is the carry before the
/// first element (mandatory when Exclusive). Returns d_first + n.
template <class T, bool Exclusive, class In, class Out, class Op, class Un>
Out scan_kernel(In first, In last, Out d_first, Op& op, Un& un, std::optional<T> init) {
  const std::size_t n = detail::algo::distance(first, last);
  scan_chunker<T, Exclusive, In, Out, Op, Un> ch{first, d_first, op, un};
  // In place, a chunk's input is overwritten once its owner has its prefix: nobody else
  // may then read it, so waiters must wait rather than recompute.
  lookback_options opt;
  opt.may_recompute = n > 0 && !same_position(first, d_first);
  // Where the scan is memory-bound (arithmetic accumulators) a chunk takes four times the
  // cache budget, whichever kind of store writes it: two claimers taking turns on 64 KiB
  // chunks interleave their memory streams finely, which costs the plain scan of 50 M int64
  // at two threads 26 ms against 22 with 256 KiB chunks on the 2-core reference machine
  // (256 KiB of input plus its output still fits a 1 MiB L2). Both kinds then run the same
  // chunks, so the record that chooses between them compares the stores alone
  // (docs/algorithms.md#scans).
  constexpr std::size_t chunk =
      streamable_v<T> ? lookback_chunk_items<std::iter_value_t<In>, 4 * lookback_chunk_bytes,
                                             4 * lookback_max_chunk>()
                      : lookback_chunk_items<std::iter_value_t<In>>();
  const auto pass = [&](bool stream) {
    ch.stream = stream;
    lookback_pass<T>(n, chunk, ch, std::move(init), opt);
  };
  // In place the lines are already in cache (just read): streaming would only evict them.
  if constexpr (scan_can_stream<T, Out>) {
    if (opt.may_recompute) {
      run_choosing_stores_at<decltype(ch)>(n * sizeof(T), pass);
      return detail::algo::advance(d_first, n);
    }
  }
  pass(false);
  return detail::algo::advance(d_first, n);
}

}  // namespace weft::detail::algo
