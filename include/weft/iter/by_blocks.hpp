// SPDX-License-Identifier: MIT
// by_exponential_blocks() and by_uniform_blocks(n): the input runs as a sequence of blocks,
// one after another, each block in parallel (Rayon's names). For searches and other
// consumers that stop early: a match near the front ends the work before later blocks start,
// where one split tree over the whole input would have put threads on its far end at once.
// Unindexed: the pipeline after it sees each block's items through its own part of the
// consumer, in order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include "weft/iter/node.hpp"
#include "weft/plumbing/bridge.hpp"
#include "weft/pool.hpp"

namespace weft::detail {

// Runs consumer `c` over blocks of positions one after another, each block in parallel on
// the bridge: `next_block()` returns the producer of the next block's items, or nothing when
// there is none. The consumer is split at each block's end (the block runs with the left
// part, the rest waits for the next block), so an ordered consumer sees the blocks' items in
// order, and a consumer that is full (a search that found its match) ends the sequence
// before the next block is asked for. by_exponential_blocks, by_uniform_blocks and
// par_bridge_ordered (whose blocks are batches read from its source) run on it.
template <plumbing::consumer C, class NextBlock>
typename C::result_type drive_blocks_in_order(C c, const plumbing::split_options& opt,
                                              NextBlock&& next_block) {
  std::optional<typename C::result_type> result;
  std::optional<C> rest(std::move(c));  // re-emplaced, not assigned: a consumer need not be
  while (!rest->full()) {
    auto block = next_block();
    if (!block) break;
    auto parts = rest->split_at(block->size());
    auto here = plumbing::bridge(*block, std::move(parts.first), opt);
    result = result ? rest->reduce(std::move(*result), std::move(here)) : std::move(here);
    rest.emplace(std::move(parts.second));
  }
  if (!result) return rest->make_folder().complete();
  return std::move(*result);
}

// Block sizes: `first`, then doubling (exponential), or `first` always (uniform).
template <indexed_node Base, bool Exponential>
class blocks_node {
 public:
  static constexpr bool indexed = false;
  using item_type = typename Base::item_type;
  static constexpr bool producer_borrows_only = detail::producer_borrows_only<Base>;
  static constexpr bool makes_owned_views = detail::makes_owned_views<Base>;

  blocks_node(Base base, std::size_t block) : base_(std::move(base)), block_(block) {}
  std::size_t positions() { return base_.size(); }

  // Splits the consumer at each block's end: the block runs on the bridge with the left
  // part, the rest of the consumer waits for the next block, and a consumer that is full
  // (a search that found its match) ends the sequence.
  template <plumbing::consumer C>
  typename C::result_type drive(C c, const plumbing::split_options& opt) {
    auto p = base_.producer();
    const std::size_t n = p.size();
    std::size_t block = Exponential ? std::max<std::size_t>(1, weft::num_threads()) : block_;
    std::size_t lo = 0;
    return drive_blocks_in_order(std::move(c), opt, [&]() -> std::optional<decltype(p)> {
      if (lo >= n) return std::nullopt;
      const std::size_t hi = lo + std::min(block, n - lo);
      const std::size_t from = std::exchange(lo, hi);
      if constexpr (Exponential)
        block = block > std::numeric_limits<std::size_t>::max() / 2 ? block : 2 * block;
      return p.slice(from, hi);
    });
  }

 private:
  Base base_;
  std::size_t block_;
};

// The adaptors of this file, a base of par_iter (par_iter_access reaches its node).
template <class Self>
class block_adaptors {
 public:
  /// [indexed] Runs the input as blocks one after another, each in parallel: the first as
  /// long as the pool has threads, each next one twice as long (Rayon's
  /// by_exponential_blocks). A search (find_first, any, try_for_each) that stops near the
  /// front reads little past its match. Not indexed after it.
  auto by_exponential_blocks() && { return wrap_blocks<true>(0); }
  auto by_exponential_blocks() const& { return Self(self()).by_exponential_blocks(); }
  /// [indexed] Runs the input as blocks of n items one after another, each in parallel
  /// (Rayon's by_uniform_blocks). n > 0 (std::invalid_argument otherwise).
  auto by_uniform_blocks(std::size_t n) && {
    if (n == 0) throw std::invalid_argument("weft: by_uniform_blocks(n): must be positive");
    return wrap_blocks<false>(n);
  }
  auto by_uniform_blocks(std::size_t n) const& { return Self(self()).by_uniform_blocks(n); }

 private:
  Self& self() { return static_cast<Self&>(*this); }
  const Self& self() const { return static_cast<const Self&>(*this); }

  template <bool Exponential>
  auto wrap_blocks(std::size_t n) {
    static_assert(Self::indexed,
                  "weft: by_exponential_blocks/by_uniform_blocks need an indexed pipeline: "
                  "they cannot follow filter, filter_map, flat_map, fold, map_init, try_fold "
                  "or while_some; apply them before");
    using node = typename Self::node_type;
    return par_iter_access::wrap(
        self(), blocks_node<node, Exponential>(std::move(par_iter_access::node(self())), n));
  }
};

}  // namespace weft::detail
