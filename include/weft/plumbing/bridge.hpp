// SPDX-License-Identifier: MIT
// The splitting engine: the one place where pipelines and algorithms meet weft::join. Its
// parts: tuning.hpp (thresholds), bridge_state.hpp (what one operation's tasks share),
// learned_cost.hpp (the cost records and the small case), split_tree.hpp (the fork, the
// trees and the leaves), after_probe.hpp (what follows the probe); here, the entry and
// the probe.
// Walkthrough: docs/plumbing.md#3-the-bridge-probe-first-then-split
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stop_token>
#include <utility>

#include "weft/plumbing/after_probe.hpp"
#include "weft/plumbing/bridge_state.hpp"
#include "weft/plumbing/consumer.hpp"
#include "weft/plumbing/cost_clock.hpp"
#include "weft/plumbing/learned_cost.hpp"
#include "weft/plumbing/producer.hpp"
#include "weft/plumbing/split_tree.hpp"
#include "weft/plumbing/splitter.hpp"
#include "weft/plumbing/tuning.hpp"
#include "weft/pool.hpp"

namespace weft::plumbing {

/// Runs producer `p` into consumer `c` and returns the consumer's result: the one splitting
/// engine behind every pipeline and algorithm.
///
/// 1. Sequential probe (adaptive mode): the caller folds a first chunk of the input inline,
///    sized from what this pipeline cost per item last time, and reads the cost clock after
///    each chunk. If the whole input is done before the probe budget runs out (~1.5 us of
///    work, or ~8 us when a fork would have to wake a sleeping thread), the call never
///    touches the pool: small inputs cost what a plain loop costs. Chunks that fit the
///    learned budget run with no clock read at all (one call in 16 is timed to keep the
///    estimate fresh), and an input the record puts at twice the budget or more skips the
///    probe and forks at once.
/// 2. Otherwise the rest is cut recursively with `weft::join`, under the adaptive `splitter`,
///    never below ~0.5 us of work per leaf (from the measured cost) or `min_len`; a nested
///    fold (called from another operation's items) runs the rest as one leaf that cuts it
///    when a thread is hungry.
/// With `max_len` set there is no probe; with `deterministic` the tree is fixed by length.
/// Exceptions: the first exception thrown by user code propagates; the other leaves stop
/// at their next block boundary.
template <producer P, consumer C>
typename C::result_type bridge(const P& p, C c, const split_options& opt = {}) {
  using detail::bridge_state;
  const std::size_t n = p.size();
  bridge_state st;
  st.depth = detail::fold_depth;
  std::optional<std::stop_callback<detail::cancel_bridge_on_stop>> on_stop;  // I3
  if (opt.stop.stop_possible()) {
    if (opt.stop.stop_requested()) return c.make_folder().complete();
    on_stop.emplace(opt.stop, detail::cancel_bridge_on_stop{&st});
    st.stoppable = true;
  }
  if (opt.deterministic) {
    std::size_t leaf = opt.min_len ? opt.min_len : detail::deterministic_leaf_items;
    if (opt.max_len) leaf = std::min(leaf, opt.max_len);
    st.check_every = detail::deterministic_check_items;
    return detail::bridge_fixed(p, c, std::max<std::size_t>(leaf, 1), st);
  }
  if (opt.max_len) {
    st.threads = weft::num_threads();
    st.min_len = std::max<std::size_t>(opt.min_len, 1);
    st.max_len = opt.max_len;
    splitter sp(n, st.threads, opt.min_len, opt.max_len);
    return detail::bridge_adaptive(p, c, sp, false, st);
  }

  detail::call_site_record& site = detail::learned_cost_for<P>(c);
  detail::learned_cost& learned = site.at(st.depth);
  auto f = c.make_folder();
  std::optional<bool> asked;  // the small-case test's answer to fork_would_wake, if it asked
  if (detail::take_small_case(site, n, {}, &asked)) {
    const detail::nested_fold nest(st.depth);
    fold_block(p, f, 0, n);  // the small case: no clock, no pool
    return std::move(f).complete();
  }
  const bool waking_fork = asked ? *asked : detail::fork_would_wake();
  const std::size_t fits = (waking_fork ? learned.fits_waking_fork : learned.fits_cheap_fork)
                               .load(std::memory_order_relaxed);
  const bool sampled = ++detail::probe_ticket % detail::probe_period_at(st.depth) == 0;
  // A search whose cost is known folds its first chunk without the clock: most searches
  // stop there (a match near the front), and two TSC reads cost a sixth of a scan of 1,000
  // int32. If it did not stop, the chunk took about the probe budget, the point where the
  // timed probe goes parallel too.
  if constexpr (folder_stops_early<decltype(f)>) {
    if (fits > 0 && !sampled) {
      const std::size_t first = std::min(fits, n);  // L2: the record may have grown since
      const detail::nested_fold nest(st.depth);
      if (!fold_block(p, f, 0, first) || first == n) return std::move(f).complete();
      return detail::bridge_after_probe(p, c, f, first,
                                        learned.ticks_per_item.load(std::memory_order_relaxed),
                                        opt.min_len, st);
    }
  }

  // The record says the input holds at least twice the budget: fork at once. Probing first
  // would only keep the other threads waiting for the budget's work (and, when a fork must
  // wake one, delay the wake-up by as much). The sampled call still probes, to keep the
  // record honest.
  if constexpr (!folder_stops_early<decltype(f)>) {
    if (fits > 0 && n / 2 >= fits && !sampled)
      return detail::bridge_after_probe(p, c, f, 0,
                                        learned.ticks_per_item.load(std::memory_order_relaxed),
                                        opt.min_len, st);
  }

  const double budget_ticks =
      (waking_fork ? detail::probe_budget_waking_fork_ns : detail::probe_budget_cheap_fork_ns) *
      cost_ticks_per_ns;
  std::size_t chunk = std::min(n, std::max<std::size_t>(fits, 1));
  if constexpr (folder_prepares<decltype(f)>)
    if (n > 0) f.prepare();
  const std::uint64_t start = cost_clock_now();
  std::size_t done = 0;
  double elapsed = 0;
  bool complete_chunks = true;  // a chunk cut short by a match says nothing about the cost
  bool go_parallel = false;
  std::size_t done_complete = 0;  // items of the chunks that ran to their end
  double elapsed_complete = 0;
  while (true) {
    const std::size_t end = std::min(n, done + chunk);
    {
      const detail::nested_fold nest(st.depth);
      complete_chunks = fold_block(p, f, done, end);
    }
    done = end;
    elapsed = static_cast<double>(cost_clock_now() - start);
    if (!complete_chunks) break;
    done_complete = done;
    elapsed_complete = elapsed;
    if (done == n) break;
    if (elapsed >= budget_ticks) {
      go_parallel = true;
      break;
    }
    chunk = std::min(chunk * 2, n - done);
  }
  const double per_item = elapsed / static_cast<double>(done);
  const float known = learned.ticks_per_item.load(std::memory_order_relaxed);
  // Only an estimate off by more than 2x is stored: the record is shared by every thread
  // running this pipeline, and rewriting it on every sampled call would bounce its line.
  const auto relearn = [&](double ticks) {
    if (known > 0 && ticks <= 2 * known && ticks >= 0.5 * known) return;
    constexpr std::size_t unbounded = std::numeric_limits<std::size_t>::max();
    learned.ticks_per_item.store(static_cast<float>(ticks), std::memory_order_relaxed);
    learned.fits_cheap_fork.store(
        detail::items_for_ns(detail::probe_budget_cheap_fork_ns, ticks, 1, unbounded),
        std::memory_order_relaxed);
    learned.fits_waking_fork.store(
        detail::items_for_ns(detail::probe_budget_waking_fork_ns, ticks, 1, unbounded),
        std::memory_order_relaxed);
  };
  if (complete_chunks) {
    relearn(per_item);
  } else if (done_complete >= detail::min_prefix_to_learn) {
    // A search that always stops early (a match at a fixed place near the front) never
    // completes its chunks; without this it would stay unlearned and probe from a 1-item
    // chunk, doubling, on every call: ten clock reads for a match at 1,000. The chunks
    // before the match are an estimate biased high by their own clock reads, which only
    // makes later chunks smaller. Learned once, it must also be corrected: the first call
    // runs cold (code pages faulted in, caches and predictors empty, a pool starting up)
    // and measures 8x the warm cost on the 2-core reference machine. Kept, that would make
    // the first chunk hold fewer items than the match's index, and every call would go
    // parallel for a match that one thread finds in 0.2 us: 2.5-3.5 us a call at 8-16
    // threads. A sampled
    // call whose first chunk ran to its end before the match measures the warm cost.
    relearn(elapsed_complete / static_cast<double>(done_complete));
  }
  if (!go_parallel) return std::move(f).complete();

  return detail::bridge_after_probe(p, c, f, done, per_item, opt.min_len, st);
}

}  // namespace weft::plumbing
