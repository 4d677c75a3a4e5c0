// SPDX-License-Identifier: MIT
// What an adaptive operation does once its probe found the input too big for one thread:
// a search walks the rest in doubling windows, a nested fold runs it as one leaf, a fold
// splits it for the pool.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <utility>

#include "weft/plumbing/bridge_state.hpp"
#include "weft/plumbing/consumer.hpp"
#include "weft/plumbing/producer.hpp"
#include "weft/plumbing/split_tree.hpp"
#include "weft/plumbing/splitter.hpp"
#include "weft/plumbing/tuning.hpp"
#include "weft/pool.hpp"

namespace weft::detail {

// Searches that stop early (any, find_any, find_first, position_first and the algorithms'
// find family): after the probe, the rest is searched in windows that double in length,
// each window split over every thread, instead of all at once. Halving the whole rest gives
// the thieves its far half, where a match near the front makes their work useless: with a
// match 500,000 items into 50 M, two threads found it no sooner than one. With windows, the
// items searched past the match are at most the last window, i.e. about as many as before
// it, and a search without a match pays one join round per doubling (~log2(n / probe)).
// A window of at least half the input is the plain adaptive split: that is how folds come.
template <plumbing::producer P, plumbing::consumer C>
typename C::result_type bridge_windows(const P& p, C& c, std::size_t window, std::size_t threads,
                                       std::size_t min_len, bridge_state& st) {
  const std::size_t n = p.size();
  if (window >= n / 2)
    return bridge_adaptive(p, c, plumbing::splitter(n, threads, min_len, 0), false, st);
  auto halves = c.split_at(window);
  C& in_window = halves.first;
  C& rest = halves.second;
  auto left = bridge_adaptive(p.slice(0, window), in_window,
                              plumbing::splitter(window, threads, min_len, 0), false, st);
  if (rest.full() || st.cancelled.load(std::memory_order_relaxed))  // X2
    return c.reduce(std::move(left), rest.make_folder().complete());
  auto right = bridge_windows(p.slice(window, n), rest, window * 2, threads, min_len, st);
  return c.reduce(std::move(left), std::move(right));
}

// The rest of an adaptive operation once the probe has folded [0, done) into `f` and found
// the input too big for one thread; `per_item` (cost-clock ticks) sizes the leaves.
template <plumbing::producer P, plumbing::consumer C, class F>
typename C::result_type bridge_after_probe(const P& p, C& c, F& f, std::size_t done,
                                           double per_item, std::size_t min_len_option,
                                           bridge_state& st) {
  const std::size_t n = p.size();
  const std::size_t threads = weft::num_threads();
  if (threads == 1 && !st.stoppable) {
    const nested_fold nest(st.depth);
    plumbing::fold_block(p, f, done, n);
    return std::move(f).complete();
  }
  // with_min_len bounds the probe's prefix as it bounds every other piece (the prefix is
  // the left piece of the answer, and a map_init state is made for it): the prefix grows to
  // min_len, and to the whole input when what would be left is shorter than that.
  if (min_len_option != 0 && done != 0) {
    const std::size_t want = std::max(done, min_len_option);
    const std::size_t end = n - std::min(want, n) < min_len_option ? n : want;
    if (end > done) {
      const nested_fold nest(st.depth);
      if (!plumbing::fold_block(p, f, done, end) || end == n) return std::move(f).complete();
      done = end;
    }
  }
  const std::size_t min_len =
      min_len_option ? min_len_option : items_for_ns(min_leaf_ns, per_item, 1, n);
  st.threads = threads;
  st.min_len = min_len;
  st.check_every = round_up_to_granule(
      items_for_ns(stop_check_ns, per_item, plumbing::block_granule, max_stop_check_items));
  // A nested call (fold depth 1 or more: its items run inside another operation's leaf)
  // goes on as one leaf that cuts its rest only when a thread is hungry (fold_rest), instead
  // of splitting for every thread at once: the operation around it has split for the pool
  // already, and while every thread is busy those cuts, their joins and their leaves' clock
  // reads are pure overhead. n-queens(12) by pipelines at 2 threads: 8.1 -> 7.5 ms (0.57x ->
  // 0.52x of one thread); see docs/plumbing.md#nested-calls-split-on-demand.
  if constexpr (!plumbing::folder_stops_early<F>) {
    if (st.depth != 0) return fold_rest(p, c, f, done, st);
  }
  auto halves = c.split_at(done);
  auto left = std::move(f).complete();
  // A search walks the rest window by window; a fold takes it as one window.
  const std::size_t window = plumbing::folder_stops_early<F>
                                 ? std::max(2 * done, threads * min_len)
                                 : n - done;
  auto right = bridge_windows(p.slice(done, n), halves.second, window, threads, min_len, st);
  return c.reduce(std::move(left), std::move(right));
}

}  // namespace weft::detail
