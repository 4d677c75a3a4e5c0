// SPDX-License-Identifier: MIT
// Compaction kernels: stable selection of the elements a predicate keeps, as a chunker of
// the single-pass look-back machinery (the carried value is the count kept so far), and the
// in-place variant over a temporary buffer.
#pragma once

#include <array>
#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/lookback.hpp"

namespace weft::detail::algo {

// keep(i) says whether element i is selected; emit(i, k, kept) writes element i, k being the
// number of elements kept before it. Without EmitAll, emit runs for kept elements only.
// A claimer reduces a chunk by evaluating keep into its scratch flags, then writes the chunk
// from those flags: keep runs once per element on the parallel path.
// Branchless (only for emits that are plain stores, e.g. trivially copyable elements
// between contiguous ranges): the flags are always computed first, then every element up to
// the chunk's last kept one is stored, kept or not. A store of an element that is not kept
// lands where the next kept one goes and is overwritten by it, so no store leaves the chunk's
// own output range [k, k + kept); an unpredictable predicate then costs no mispredictions.
template <bool EmitAll, bool Branchless, class Keep, class Emit>
struct compact_chunker {
  using scratch = std::array<unsigned char, lookback_max_chunk>;
  Keep& keep;
  Emit& emit;

  std::size_t combine(std::size_t a, std::size_t b) const { return a + b; }

  std::size_t aggregate(std::size_t lo, std::size_t hi) const {
    std::size_t k = 0;
    for (std::size_t i = lo; i < hi; ++i) k += keep(i) ? 1 : 0;
    return k;
  }

  std::size_t reduce(std::size_t lo, std::size_t hi, scratch& s) const {
    std::size_t k = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const bool b = keep(i);
      s[i - lo] = b;
      k += b;
    }
    return k;
  }

  void scan(std::size_t lo, std::size_t hi, std::optional<std::size_t>& carry, scratch& s,
            bool reduced) const {
    std::size_t k = *carry;
    if constexpr (Branchless && !EmitAll) {
      for (std::size_t a = lo; a < hi; a += lookback_max_chunk) {  // prefix() blocks are long
        const std::size_t b = hi - a < lookback_max_chunk ? hi : a + lookback_max_chunk;
        if (!reduced) reduce(a, b, s);
        std::size_t end = b;
        while (end > a && s[end - 1 - a] == 0) --end;
        for (std::size_t i = a; i < end; ++i) {
          emit(i, k, true);
          k += s[i - a];
        }
      }
      *carry = k;
      return;
    }
    for (std::size_t i = lo; i < hi; ++i) {
      const bool b = reduced ? s[i - lo] != 0 : static_cast<bool>(keep(i));
      if constexpr (EmitAll) {
        emit(i, k, b);
      } else {
        if (b) emit(i, k, true);
      }
      k += b;
    }
    *carry = k;
  }
};

/// Calls emit for the elements of [0, n) in one pass, each with its rank among the kept
/// ones; returns how many were kept. `V` is the element type (it sizes the chunks).
/// `slots_now`: allocate everything before the first emit (see lookback_job).
/// keep(i) must read nothing that emit writes (the output never overlaps the input), so a
/// waiter may recount a late predecessor's chunk.
template <class V, bool EmitAll = false, bool Branchless = false, class Keep, class Emit>
std::size_t compact_pass(std::size_t n, Keep& keep, Emit& emit, bool slots_now = false) {
  compact_chunker<EmitAll, Branchless, Keep, Emit> ch{keep, emit};
  return *lookback_pass<std::size_t>(n, lookback_chunk_items<V>(), ch,
                                     std::optional<std::size_t>(0), {slots_now, true});
}

// The in-place algorithms move elements through a buffer, which is only exception-free when
// moving is: other element types run the sequential std:: algorithm.
template <class It>
inline constexpr bool nothrow_relocatable =
    std::is_nothrow_move_constructible_v<std::iter_value_t<It>> &&
    std::is_nothrow_move_assignable_v<std::iter_value_t<It>> &&
    std::is_nothrow_destructible_v<std::iter_value_t<It>>;

/// Stable in-place partition of [first, first + n) by keep(i): the kept elements first, in
/// order; with Both, the others after them in order, else they are left moved-from.
/// Returns the number kept. keep runs for every element before anything moves, so an
/// exception from it leaves the range untouched; after that nothing can throw but the
/// allocations, which all happen before the first move.
template <bool Both, class It, class Keep>
std::size_t partition_in_place(It first, std::size_t n, Keep& keep) {
  using V = std::iter_value_t<It>;
  if (n == 0) return 0;
  auto flags = std::make_unique_for_overwrite<unsigned char[]>(n);
  const auto count = [&](std::size_t lo, std::size_t hi) {
    std::size_t k = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const bool b = keep(i);
      flags[i] = b;
      k += b;
    }
    return k;
  };
  const std::size_t kept =
      *reduce_blocks<std::size_t>(n, count, [](std::size_t a, std::size_t b) { return a + b; });
  if (kept == n || kept == 0) return kept;

  const std::size_t moved = Both ? n : kept;
  std::allocator<V> alloc;
  V* buf = alloc.allocate(moved);
  struct release {
    std::allocator<V>& a;
    V* p;
    std::size_t n;
    ~release() { a.deallocate(p, n); }
  } guard{alloc, buf, moved};
  const auto from_flags = [&](std::size_t i) { return flags[i] != 0; };
  const auto to_buffer = [&](std::size_t i, std::size_t k, bool b) {
    const std::size_t at = b ? k : kept + (i - k);
    std::construct_at(buf + at, std::move(*detail::algo::advance(first, i)));
  };
  compact_pass<V, Both>(n, from_flags, to_buffer, true);
  for_blocks(moved, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t j = lo; j < hi; ++j) {
      *detail::algo::advance(first, j) = std::move(buf[j]);
      std::destroy_at(buf + j);
    }
  });
  return kept;
}

}  // namespace weft::detail::algo
