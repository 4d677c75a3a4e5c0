// SPDX-License-Identifier: MIT
// The algorithms' door to the splitting engine: [0, n) as a producer of indices, handed to
// the algorithm in contiguous blocks. No algorithm picks its own grain: plumbing::bridge
// decides whether to go parallel at all, where to cut and how long a block is.
#pragma once

#include <atomic>
#include <cstddef>
#include <iterator>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/detail/algo/engine.hpp"
#include "weft/execution.hpp"
#include "weft/plumbing/bridge.hpp"
#include "weft/plumbing/range_producers.hpp"
#include "weft/plumbing/search.hpp"
#include "weft/plumbing/value.hpp"

namespace weft::detail::algo {

// Whether a call that only reads through its iterators runs on the pool: a parallel policy
// and random-access iterators. Weaker iterators run the sequential std:: algorithm, as the
// standard allows. Packed bits (mutable std::vector<bool> iterators) qualify: reading the
// words they share from many threads is no race.
template <class Policy, class... It>
inline constexpr bool reads_parallel =
    is_parallel_policy_v<Policy> && (std::random_access_iterator<It> && ...);

// Whether a call that may write through its iterators runs on the pool: as reads_parallel,
// but mutable std::vector<bool> iterators run sequentially, since two threads writing two
// elements of one word race (writes_packed_bits).
template <class Policy, class... It>
inline constexpr bool runs_parallel =
    reads_parallel<Policy, It...> && (!writes_packed_bits<It> && ...);

template <class It>
It advance(It it, std::size_t i) {
  return it + static_cast<std::iter_difference_t<It>>(i);
}

template <class It>
std::size_t distance(It first, It last) {
  return static_cast<std::size_t>(last - first);
}

// Ordered search over blocks: iter's find_first consumer with a block function in place of a
// predicate (protocol tags S1, S2 and the range in plumbing/search.hpp). A search for the last
// match runs it over mirrored blocks (find_last_block).
struct find_blocks_consumer : carries_block_cost {
  using result_type = std::size_t;  // no_index: no match
  using block_fn = block_fn_ref<std::size_t(std::size_t, std::size_t)>;
  const block_fn* block;
  ordered_search_range<true> range;

  std::pair<find_blocks_consumer, find_blocks_consumer> split_at(std::size_t i) const {
    auto [l, r] = range.split_at(i);
    return {{{cost}, block, l}, {{cost}, block, r}};
  }

  struct folder {
    static constexpr bool stops_early = true;
    std::size_t hit;
    const block_fn* block;
    ordered_search_range<true> range;
    void look(std::size_t a, std::size_t b) {
      const std::size_t at = (*block)(a, b);
      if (at == b) return;
      hit = at;
      range.record(at);
    }
    void consume(std::size_t, std::size_t i) { look(i, i + 1); }
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t from, std::size_t to) {
      if (from < to) look(p[from], p[from] + (to - from));
    }
    bool done() const { return hit != no_index; }
    std::size_t complete() && { return hit; }
  };
  folder make_folder() const { return {no_index, block, range}; }
  bool full() const { return range.full(); }
  std::size_t reduce(std::size_t l, std::size_t r) const {
    return range.keep_left(l != no_index, r != no_index) ? l : r;
  }
};

WEFT_API std::size_t run_blocks(std::size_t n, const find_blocks_consumer& c);

/// The least index i in [0, n) where a match is, or n. `block(lo, hi)` returns the first
/// match in [lo, hi), or hi. Blocks right of a found match are skipped or cut short.
template <class Block>
std::size_t find_first_block(std::size_t n, const Block& block) {
  if (n == 0) return 0;
  const find_blocks_consumer::block_fn ref(block);
  if (take_small_case(block_cost<Block>, n)) {
    const nested_fold nest;
    return ref(std::size_t{0}, n);  // n: no match
  }
  std::atomic<std::size_t> best{no_index};
  const std::size_t at =
      run_blocks(n, find_blocks_consumer{{&block_cost<Block>}, &ref, {&best, 0, n}});
  return at == no_index ? n : at;
}

// Whether a search may test the elements its iterators reach a group at a time (scan_groups
// in plumbing/search.hpp): each iterator yields an lvalue of a trivially copyable type of at
// most 16 bytes, so reading one costs a load and no user code.
template <class... It>
inline constexpr bool groups_elements = (groups_items<span_producer<It>> && ...);

// The least i in [lo, hi) with test(i), or hi. Grouped: a group of find_group indices at a
// time with no branch per index (for a cheap test of elements read from memory, which then
// vectorises; the test may run on up to find_group - 1 indices past a match); otherwise one
// by one.
template <bool Grouped, class Test>
std::size_t first_in_block(std::size_t lo, std::size_t hi, const Test& test) {
  std::size_t i = lo;
  if constexpr (Grouped) {
    bool found = false;
    i = scan_groups(lo, hi, test, found);
    if (found) return i;
  }
  for (; i < hi; ++i)
    if (test(i)) return i;
  return hi;
}

/// The least i in [0, n) with test(i), or n (blocks tested as first_in_block<Grouped>).
template <bool Grouped, class Test>
std::size_t first_index(std::size_t n, const Test& test) {
  return find_first_block(
      n, [&](std::size_t lo, std::size_t hi) { return first_in_block<Grouped>(lo, hi, test); });
}

// Unordered search over blocks: iter's `any` consumer with a block function in place of a
// predicate. The first match anywhere sets the shared flag, and every worker stops at its
// next block (protocol tags S1, S2 in plumbing/search.hpp): a match late in the range ends
// the search as soon as one worker reaches it, where an ordered search must still finish
// every block left of it.
struct any_blocks_consumer : carries_block_cost {
  using result_type = bool;
  using block_fn = block_fn_ref<bool(std::size_t, std::size_t)>;
  const block_fn* block;
  std::atomic<bool>* found;

  std::pair<any_blocks_consumer, any_blocks_consumer> split_at(std::size_t) const {
    return {*this, *this};
  }

  struct folder {
    static constexpr bool stops_early = true;
    bool hit;
    const block_fn* block;
    std::atomic<bool>* found;
    void look(std::size_t a, std::size_t b) {
      if (!(*block)(a, b)) return;
      hit = true;
      found->store(true, std::memory_order_relaxed);  // S1
    }
    void consume(std::size_t, std::size_t i) { look(i, i + 1); }
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t from, std::size_t to) {
      if (from < to) look(p[from], p[from] + (to - from));
    }
    bool done() const { return hit; }
    bool complete() && { return hit; }
  };
  folder make_folder() const { return {false, block, found}; }
  bool full() const { return found->load(std::memory_order_relaxed); }  // S2
  bool reduce(bool l, bool r) const { return l || r; }
};

WEFT_API bool run_blocks(std::size_t n, const any_blocks_consumer& c);

/// Whether `block(lo, hi)` holds for some block of [0, n): true once any block has a match.
template <class Block>
bool any_block(std::size_t n, const Block& block) {
  if (n == 0) return false;
  const any_blocks_consumer::block_fn ref(block);
  if (take_small_case(block_cost<Block>, n)) {
    const nested_fold nest;
    return ref(std::size_t{0}, n);
  }
  std::atomic<bool> found{false};
  return run_blocks(n, any_blocks_consumer{{&block_cost<Block>}, &ref, &found});
}

/// Whether test(i) holds for some i in [0, n), blocks tested as first_in_block<Grouped>
/// (scan_groups' flag bytes; an OR of a group's tests, which would skip locating the match,
/// compiled to a scalar compare per index here: 40-60 % slower over int32 with no match).
template <bool Grouped, class Test>
bool any_index(std::size_t n, const Test& test) {
  return any_block(n, [&](std::size_t lo, std::size_t hi) {
    return first_in_block<Grouped>(lo, hi, test) != hi;
  });
}

/// The greatest index i in [0, n) where a match is, or n. `block(lo, hi)` returns the last
/// match in [lo, hi), or hi. Searched from the end, as find_first_block searches from the
/// front: it is find_first_block over mirrored positions (j = n - 1 - i), so a match near the
/// end stops the search early at any thread count (with a CAS-max search the join's left
/// half ran first: find_end over 100 M int32, a match 1,000 from the end, 49 ms at 2 threads).
template <class Block>
std::size_t find_last_block(std::size_t n, const Block& block) {
  const std::size_t at = find_first_block(n, [&block, n](std::size_t lo, std::size_t hi) {
    const std::size_t i = block(n - hi, n - lo);
    return i == n - lo ? hi : n - 1 - i;
  });
  return at == n ? n : n - 1 - at;
}

// Whether the output starts where the input does (in place); true when it cannot tell.
template <class In, class Out>
bool same_position(In first, Out d_first) {
  if constexpr (std::contiguous_iterator<In> && std::contiguous_iterator<Out>)
    return static_cast<const volatile void*>(std::to_address(first)) ==
           static_cast<const volatile void*>(std::to_address(d_first));
  else if constexpr (std::is_same_v<In, Out>)
    return first == d_first;
  else
    return true;
}

}  // namespace weft::detail::algo
