// SPDX-License-Identifier: MIT
// The comparison path of weft::stable_sort, and weft::inplace_merge: fixed
// tiles sorted as independent sub-problems, then levels of merges, each level one pass of
// output blocks split by merge path. A scratch array of live elements is the other side of
// every merge; an exception leaves every element back in the input range. A comparator that
// is no strict weak order cannot make a merge read outside its runs: the merge-path splits
// are checked (merge_path.hpp), and the sequential kernels are guarded (seq_sort.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/merge_path.hpp"
#include "weft/kernels/scratch.hpp"
#include "weft/kernels/seq_sort.hpp"

namespace weft::detail::algo {

// A tile is sorted by one sequential kernel; a merge chunk (merge_path.hpp) is the unit of
// output one task writes and, on an exception, the unit of bookkeeping for putting elements
// back. Both are fixed in advance (the engine still decides how many tiles or chunks one
// task takes).
inline constexpr std::size_t sort_tile = std::size_t(1) << 13;

// A scratch array of n live elements, made by moving each input element in and back: the
// merges then only ever move-assign, and the unwinding code never has to track which slots
// hold constructed objects.
template <class T>
class live_scratch {
 public:
  template <class It>
  live_scratch(It a, std::size_t n) : raw_(n) {
    T* b = raw_.data();
    for_blocks(n, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) {
        ::new (static_cast<void*>(b + i)) T(std::move(*algo::advance(a, i)));
        *algo::advance(a, i) = std::move(b[i]);
      }
    });
  }
  live_scratch(const live_scratch&) = delete;
  live_scratch& operator=(const live_scratch&) = delete;
  ~live_scratch() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      T* b = raw_.data();
      const auto destroy = [&](std::size_t lo, std::size_t hi) { std::destroy(b + lo, b + hi); };
      try {
        for_blocks(raw_.size(), destroy);
      } catch (...) {  // the pool could not take the work: destroy on this thread
        destroy(0, raw_.size());
      }
    }
  }
  T* data() const noexcept { return raw_.data(); }

 private:
  scratch<T> raw_;
};

// One merge of the output range [lo, hi): runs [lo, mid) and [mid, hi).
struct merge_pair {
  std::size_t lo, mid, hi;
};

// One chunk of one level: output [out_lo, out_hi) of its pair, from [a_lo, a_hi) of the left
// run and [b_lo, b_hi) of the right. `done` is written by the task that merged it and read
// by the caller after the level's pass returned or threw (ordered by the pass's joins).
struct merge_chunk_state {
  const merge_pair* pair;
  std::size_t out_lo, out_hi;
  std::size_t a_lo = 0, a_hi = 0, b_lo = 0, b_hi = 0;
  bool done = false;
};

// Merges every pair from src to dst, one pass of chunks. On an exception the finished chunks
// are moved back into the holes they left in src (the throwing one restored itself), so src
// again holds every element; then the exception propagates.
template <class S, class D, class Comp>
void merge_level(S src, D dst, const std::vector<merge_pair>& pairs, Comp& comp) {
  std::vector<merge_chunk_state> chunks;
  for (const merge_pair& p : pairs)
    for (std::size_t o = p.lo; o < p.hi; o += merge_chunk)
      chunks.push_back({&p, o, std::min(p.hi, o + merge_chunk)});
  // Every split point is found before any element moves: a search that read an element
  // another chunk had already moved out would see a moved-from value.
  for_blocks(chunks.size(), [&](std::size_t lo, std::size_t hi) {
    for (std::size_t c = lo; c < hi; ++c) {
      merge_chunk_state& s = chunks[c];
      const merge_pair& p = *s.pair;
      const std::size_t na = p.mid - p.lo, nb = p.hi - p.mid;
      const std::size_t i = co_rank(algo::advance(src, p.lo), na, algo::advance(src, p.mid), nb,
                                    s.out_lo - p.lo, comp);
      s.a_lo = p.lo + i;
      s.b_lo = p.mid + (s.out_lo - p.lo - i);
    }
  });
  // A chunk's end is the next chunk's start, so the chunks partition each pair exactly once
  // whatever the comparator answers; splits out of order (an invalid comparator, or runs not
  // sorted by it) throw here, before anything has moved.
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    merge_chunk_state& s = chunks[c];
    const bool last_of_pair = c + 1 == chunks.size() || chunks[c + 1].pair != s.pair;
    s.a_hi = last_of_pair ? s.pair->mid : chunks[c + 1].a_lo;
    s.b_hi = last_of_pair ? s.pair->hi : chunks[c + 1].b_lo;
    if (s.a_hi < s.a_lo || s.b_hi < s.b_lo) throw_invalid_comparator_cold();
  }
  try {
    for_blocks(chunks.size(), [&](std::size_t lo, std::size_t hi) {
      for (std::size_t c = lo; c < hi; ++c) {
        merge_chunk_state& s = chunks[c];
        merge_to<true>(algo::advance(src, s.a_lo), algo::advance(src, s.a_hi),
                       algo::advance(src, s.b_lo), algo::advance(src, s.b_hi),
                       algo::advance(dst, s.out_lo), comp);
        s.done = true;
      }
    });
  } catch (...) {
    for (const merge_chunk_state& s : chunks) {
      if (!s.done) continue;
      const D r = algo::advance(dst, s.out_lo);
      const D m = algo::advance(r, s.a_hi - s.a_lo);
      std::move(r, m, algo::advance(src, s.a_lo));
      std::move(m, algo::advance(m, s.b_hi - s.b_lo), algo::advance(src, s.b_lo));
    }
    throw;
  }
}

template <class From, class To>
void move_par(From from, To to, std::size_t n) {
  for_blocks(n, [&](std::size_t lo, std::size_t hi) {
    std::move(algo::advance(from, lo), algo::advance(from, hi), algo::advance(to, lo));
  });
}

// Moves everything from the scratch b back to a; used on the unwinding path, where the pool
// may be the thing that failed, so it runs on the calling thread.
template <class It, class T>
void move_back(T* b, It a, std::size_t n) noexcept {
  std::move(b, b + n, a);
}

// Sorts [a, a + n): tiles by `tile_sort(first, last, scratch)` (stable or not), then merges.
// Stable when tile_sort is. Needs noexcept moves (the callers check).
template <class It, class Comp, class TileSort>
void merge_sort_par(It a, std::size_t n, Comp& comp, const TileSort& tile_sort) {
  using T = std::iter_value_t<It>;
  live_scratch<T> buf(a, n);
  T* const b = buf.data();
  const std::size_t tiles = (n + sort_tile - 1) / sort_tile;
  for_blocks(tiles, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t t = lo; t < hi; ++t) {
      const std::size_t s = t * sort_tile, e = std::min(n, s + sort_tile);
      tile_sort(algo::advance(a, s), e - s, b + s);
    }
  });
  bool in_a = true;
  std::vector<merge_pair> pairs;
  for (std::size_t w = sort_tile; w < n; w *= 2, in_a = !in_a) {
    pairs.clear();
    for (std::size_t lo = 0; lo < n; lo += 2 * w)
      pairs.push_back({lo, std::min(n, lo + w), std::min(n, lo + 2 * w)});
    if (in_a) {
      merge_level(a, b, pairs, comp);
    } else {
      try {
        merge_level(b, a, pairs, comp);
      } catch (...) {
        move_back(b, a, n);
        throw;
      }
    }
  }
  if (!in_a) move_par(b, a, n);
}

// inplace_merge: [a, a + m) and [a + m, a + n) sorted; moved to scratch, merged back.
template <class It, class Comp>
void inplace_merge_par(It a, std::size_t m, std::size_t n, Comp& comp) {
  using T = std::iter_value_t<It>;
  live_scratch<T> buf(a, n);
  T* const b = buf.data();
  move_par(a, b, n);
  const std::vector<merge_pair> pairs{{0, m, n}};
  try {
    merge_level(b, a, pairs, comp);
  } catch (...) {
    move_back(b, a, n);
    throw;
  }
}

}  // namespace weft::detail::algo
