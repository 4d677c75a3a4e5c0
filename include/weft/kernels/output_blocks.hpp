// SPDX-License-Identifier: MIT
// Outputs written once, a block at a time, on the block engine (plumbing/blocks.hpp): copy,
// transform, fill, generate and an indexed to_vector, with streaming stores for a large
// output where they pay (stream_store.hpp).
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>

#include "weft/kernels/stream_store.hpp"
#include "weft/plumbing/blocks.hpp"

namespace weft::detail::algo {

// --- outputs written once ---------------------------------------------------------------
//
// body(lo, hi, d) writes the outputs of positions [lo, hi) at d, d + 1, ... and never reads
// them (copy, transform, fill, generate). An output that is a contiguous array of a trivial
// type, at least stream_min_bytes long (a smaller one is likely still cached when the caller
// reads it) and not the input itself (`in_place`: those lines are in cache already), is
// written with streaming stores a line at a time: body then produces each whole line into a
// line buffer (d is a T*), which is streamed (stream_fill; each block ends with its fence).
// A plain store to a line that is not cached reads it first: a copy moves three units of
// traffic for two of data, a fill two for one.
// Whether the streamed stores pay is the call site's record's choice (site_record): on
// some machines plain stores are as fast.
template <class Out, class Body>
Out for_output_blocks(Out out, std::size_t n, bool in_place, const Body& body) {
  using T = std::iter_value_t<Out>;
  const auto at = [&](std::size_t i) {
    return out + static_cast<std::iter_difference_t<Out>>(i);
  };
  const auto plain = [&] {
    for_blocks(n, [&](std::size_t lo, std::size_t hi) { body(lo, hi, at(lo)); });
  };
  if constexpr (std::contiguous_iterator<Out> && line_fillable_v<T>) {
    if (!in_place) {
      run_choosing_stores_at<Body>(n * sizeof(T), [&](bool stream) {
        if (!stream) return plain();
        T* const o = std::to_address(out);
        for_blocks(n, [&](std::size_t lo, std::size_t hi) {
          stream_fill(o + lo, hi - lo, [&](T* d, std::size_t from, std::size_t to) {
            body(lo + from, lo + to, d);
          });
        });
      });
      return at(n);
    }
  }
  plain();
  return at(n);
}

}  // namespace weft::detail::algo
