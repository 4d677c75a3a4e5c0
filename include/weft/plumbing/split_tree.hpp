// SPDX-License-Identifier: MIT
// The engine's split tree: its one fork (fork_halves), the adaptive and deterministic trees,
// and the leaves, which fold in blocks sized by their measured cost and cut their rest
// when a thread is hungry. Walkthrough: docs/plumbing.md#3-the-bridge-probe-first-then-split
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

#include "weft/join.hpp"
#include "weft/plumbing/bridge_state.hpp"
#include "weft/plumbing/consumer.hpp"
#include "weft/plumbing/cost_clock.hpp"
#include "weft/plumbing/producer.hpp"
#include "weft/plumbing/splitter.hpp"
#include "weft/plumbing/tuning.hpp"
#include "weft/pool.hpp"

namespace weft::detail {

inline std::size_t round_up_to_granule(std::size_t n) {
  return (n + plumbing::block_granule - 1) / plumbing::block_granule * plumbing::block_granule;
}

inline std::size_t items_for_ns(double ns, double ticks_per_item, std::size_t lo, std::size_t hi) {
  const double items = ns * plumbing::cost_ticks_per_ns / std::max(ticks_per_item, 1e-3);
  if (items <= static_cast<double>(lo)) return lo;
  if (items >= static_cast<double>(hi)) return hi;
  return static_cast<std::size_t>(items);
}

// After a timed leaf block of `items` that took `ticks`: whether to keep timing. A block
// of about its target length (within 2x) stops the timing. Any other resizes `block` to the
// target at the measured cost (whole granules while it is at least one, else single items;
// never over max_stop_check_items) and is timed again, unless there was nothing to change: a
// block stretched by a preemption shrinks the next one, which then measures short and grows
// back. Blocks grow past the probe's size too: the probe's cost per item can be far too
// high, since a fixed cost of its first item counts as items' cost (map_init's init, ~1.4
// us for a std::mt19937_64, made one item look like 2 us where items cost 4 ns, and capped
// at the probe's size the blocks stayed at 8 items).
inline bool refit_block(std::size_t& block, std::size_t items, std::uint64_t ticks) {
  constexpr double target = stop_check_ns * plumbing::cost_ticks_per_ns;
  const auto took = static_cast<double>(ticks);
  if (took <= 2 * target && took >= target / 2) return false;
  const std::size_t fit = items_for_ns(stop_check_ns, took / static_cast<double>(items), 1,
                                       max_stop_check_items);
  constexpr std::size_t granule = plumbing::block_granule;
  const std::size_t refit = fit < granule ? fit : fit / granule * granule;
  if (refit == block) return false;
  block = refit;
  return true;
}

// The two sides that fork_halves hands to join. Named types rather than lambdas in
// fork_halves: a lambda there would be a new type for each value of Share, and every type
// join sees instantiates its out-of-line paths (join_slow, the job, the cold paths) again.
template <class P, class C, class Left>
struct fork_left_half {
  const Left& left;
  const P& p;
  C& c;
  typename C::result_type operator()() const { return left(p, c); }
};

template <class P, class C, class Right>
struct fork_right_half {
  const Right& right;
  const P& p;
  C& c;
  std::optional<std::size_t> forker;
  typename C::result_type operator()() const {
    return right(p, c, weft::thread_index() != forker);
  }
};

// The engine's one fork: cuts `p` and `c` at `mid`, runs `left(pl, cl)` here and
// `right(pr, cr, stolen)` through join (`stolen`: it runs on another thread than the one
// that cut), and reduces left to right. Share: offer the right half before the left starts
// (join_eagerly_shared), not only when a thread asks.
template <bool Share = false, plumbing::producer P, plumbing::consumer C, class Left,
          class Right>
typename C::result_type fork_halves(const P& p, C& c, std::size_t mid, const Left& left,
                                    const Right& right) {
  auto halves = c.split_at(mid);  // not a structured binding: clang 14 cannot capture those
  C& cl = halves.first;
  C& cr = halves.second;
  const P pl = p.slice(0, mid);
  const P pr = p.slice(mid, p.size());
  fork_left_half<P, C, Left> run_left{left, pl, cl};
  fork_right_half<P, C, Right> run_right{right, pr, cr, weft::thread_index()};
  auto [rl, rr] = [&] {
    if constexpr (Share)
      return detail::join_eagerly_shared(run_left, run_right);
    else
      return weft::join(run_left, run_right);
  }();
  return c.reduce(std::move(rl), std::move(rr));
}

template <plumbing::producer P, plumbing::consumer C>
typename C::result_type bridge_adaptive(const P& p, C& c, plumbing::splitter sp, bool stolen,
                                        bridge_state& st);

// The right side of both of the engine's adaptive forks (a cut by the splitter, a cut of a
// started leaf): one type, so that join's machinery for it is instantiated once.
template <plumbing::producer P, plumbing::consumer C>
struct adaptive_half {
  plumbing::splitter sp;
  bridge_state& st;
  typename C::result_type operator()(const P& p, C& c, bool stolen) const {
    return bridge_adaptive(p, c, sp, stolen, st);
  }
};

template <plumbing::producer P, plumbing::consumer C, class F>
typename C::result_type split_rest(const P& p, C& c, F& f, std::size_t lo, bridge_state& st,
                                   bool share);

// A leaf: folds items [lo, size) of `p` into `f`, a folder of `c` that has consumed [0, lo),
// in blocks of ~4 us. After each block it stops if the consumer is full or the operation was
// cancelled, and offers this worker's pending forks to idle threads. If a thread is idle and
// this worker has nothing else to give it, the leaf cuts what it has left in two
// (split_rest): once a leaf has started, the splitter's cut is not the last word, so a
// thread that runs out of work waits for one block of another leaf, not for the whole of
// it. (Without the cut it would wait for the rest of a leaf of up to an eighth of the input:
// milliseconds in which it falls asleep, and on the 2-core reference machine a worker woken
// from the kernel runs its next leaf up to 40 % slower.)
//
// Blocks are sized from the probe's cost per item, which describes the first items only.
// Where later items cost more (the `unbalanced` benchmark: item i costs i units), a block
// of them could run for milliseconds, and a thread that ran dry waited that long to be
// noticed. So in adaptive mode a leaf times its first block (one pair of clock reads) and,
// if it was far from the ~4 us it should have taken, resizes its blocks to the measured cost
// and keeps timing them until one fits (refit_block). The next leaf of the operation starts
// from the size found (block_hint): the halves that split_rest offers hold items like these.
//
// Items that cost more than one stop check each (eager_share_item_ns) make the hand-off
// itself slow: a thread that runs dry waits for the item in progress to end before the leaf
// notices and cuts (at the end of `unbalanced`, up to 70 us, about ten times a run). So
// such a leaf cuts its rest before every item and offers the far half at once
// (split_rest, share): the thread that runs dry finds it already published.
template <plumbing::producer P, plumbing::consumer C, class F>
typename C::result_type fold_rest(const P& p, C& c, F& f, std::size_t lo, bridge_state& st) {
  const std::size_t hi = p.size();
  const std::size_t hint = st.block_hint.load(std::memory_order_relaxed);
  std::size_t block = hint != 0 ? hint : st.check_every;
  bool timing = st.threads > 1;  // never in deterministic mode: its blocks are fixed
  bool long_items = false;
  const nested_fold nest(st.depth);
  try {
    while (lo < hi) {
      const std::size_t end = std::min(hi, lo + block);
      const std::uint64_t start = timing ? plumbing::cost_clock_now() : 0;
      if (!plumbing::fold_block(p, f, lo, end)) break;
      if (timing) {
        const std::uint64_t took = plumbing::cost_clock_now() - start;
        long_items = static_cast<double>(took) >=
                     eager_share_item_ns * plumbing::cost_ticks_per_ns *
                         static_cast<double>(end - lo);
        timing = refit_block(block, end - lo, took);
        if (block != hint) st.block_hint.store(block, std::memory_order_relaxed);
      }
      lo = end;
      if (c.full() || st.cancelled.load(std::memory_order_relaxed)) break;  // X2
      const bool can_cut = st.threads > 1 && hi - lo >= 2 * st.min_len;
      if (long_items && can_cut) return split_rest(p, c, f, lo, st, true);
      // Pending forks go first (each is bigger than half of this rest); only a thread that
      // finds none makes the leaf cut.
      if (detail::offer_work_or_want_split() && can_cut) [[unlikely]]
        return split_rest(p, c, f, lo, st, false);
    }
  } catch (...) {
    st.cancelled.store(true, std::memory_order_relaxed);  // X1
    throw;
  }
  return std::move(f).complete();
}

// The first half of the rest goes on here with the same folder (a folder of `c` that
// consumed [0, lo) is one of c.split_at(mid).first: the law the probe relies on too); the
// second is offered through join (share: at once) and split further by whoever runs it.
// `share` is a value, not a template parameter: both kinds of cut then fork the same two
// callables, and join's machinery is instantiated for them once.
template <plumbing::producer P, plumbing::consumer C, class F>
[[gnu::noinline]] typename C::result_type split_rest(const P& p, C& c, F& f, std::size_t lo,
                                                     bridge_state& st, bool share) {
  const std::size_t mid = lo + (p.size() - lo) / 2;
  const auto left = [&](const P& pl, C& cl) { return fold_rest(pl, cl, f, lo, st); };
  const adaptive_half<P, C> right{
      plumbing::splitter(p.size() - mid, st.threads, st.min_len, st.max_len), st};
  if (share) return fork_halves<true>(p, c, mid, left, right);
  return fork_halves<false>(p, c, mid, left, right);
}

template <plumbing::producer P, plumbing::consumer C>
typename C::result_type fold_leaf(const P& p, C& c, bridge_state& st) {
  auto f = c.make_folder();
  return fold_rest(p, c, f, 0, st);
}

template <plumbing::producer P, plumbing::consumer C>
typename C::result_type bridge_adaptive(const P& p, C& c, plumbing::splitter sp, bool stolen,
                                        bridge_state& st) {
  const std::size_t n = p.size();
  if (c.full() || st.cancelled.load(std::memory_order_relaxed))  // X2
    return c.make_folder().complete();
  if (!sp.try_split(n, stolen)) return fold_leaf(p, c, st);
  return fork_halves<plumbing::has_long_items<P>>(
      p, c, n / 2, [&](const P& pl, C& cl) { return bridge_adaptive(pl, cl, sp, false, st); },
      adaptive_half<P, C>{sp, st});
}

// Deterministic mode: the tree depends on the length alone, so every leaf and every
// reduction is the same whatever the thread count and whoever steals what.
template <plumbing::producer P, plumbing::consumer C>
typename C::result_type bridge_fixed(const P& p, C& c, std::size_t leaf, bridge_state& st) {
  const std::size_t n = p.size();
  if (c.full() || st.cancelled.load(std::memory_order_relaxed))  // X2
    return c.make_folder().complete();
  if (n <= leaf) return fold_leaf(p, c, st);
  return fork_halves(
      p, c, n / 2, [&](const P& pl, C& cl) { return bridge_fixed(pl, cl, leaf, st); },
      [&](const P& pr, C& cr, bool) { return bridge_fixed(pr, cr, leaf, st); });
}

}  // namespace weft::detail
