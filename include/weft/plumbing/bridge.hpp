// SPDX-License-Identifier: MIT
// The splitting engine: the one place where pipelines and algorithms meet weft::join.
// Walkthrough: docs/plumbing.md#3-the-bridge-probe-first-then-split
#pragma once

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stop_token>
#include <utility>

#include "weft/detail/config.hpp"
#include "weft/join.hpp"
#include "weft/plumbing/consumer.hpp"
#include "weft/plumbing/cost_clock.hpp"
#include "weft/plumbing/producer.hpp"
#include "weft/plumbing/splitter.hpp"
#include "weft/pool.hpp"

namespace weft::detail {

// Heuristic thresholds of the engine, in nanoseconds of the cost clock.
// The probe's budget: how much work the caller does inline before it forks. A fork that a
// thread idle and awake can take costs ~0.5 us; one that must wake a sleeping thread costs
// the forker ~10 us and the woken thread arrives ~30 us later (2-core reference machine), so
// the probe runs longer first (detail::fork_would_wake).
inline constexpr double probe_budget_cheap_fork_ns = 1500;
inline constexpr double probe_budget_waking_fork_ns = 8000;
inline constexpr double min_leaf_ns = 500;
// Work between two stop checks (full / cancelled / offer_work) in a leaf. 2 us blocks cost
// count_if over 50 M int32 at 2 threads 3-4% (16.2 ms against 15.9 at 4 us and 15.7 at 8 us,
// medians of 16); 4 us keeps an idle thread's wait for publication and the work past a
// match or an exception small against a wake-up (30-100 us on the 2-core reference machine).
inline constexpr double stop_check_ns = 4000;
inline constexpr std::size_t max_stop_check_items = 8192;
// A leaf whose items take at least this long each offers the rest of its range before each
// item instead of on demand (fold_rest): a thread that runs dry while such an item runs
// would otherwise wait for it to end. The offer costs ~0.1 us, under 1 % of such an item.
inline constexpr double eager_share_item_ns = 16000;
inline constexpr std::size_t deterministic_leaf_items = 4096;
inline constexpr std::size_t deterministic_check_items = 1024;
inline constexpr unsigned probe_sample_period = 16;
// The same for a nested call (fold depth 1 and deeper). Such calls come in thousands per
// outer call, and a recursion's calls at one depth differ in cost by more than 2x, so each
// sample tends to rewrite their shared record, a cache line that then moves between the
// threads: with one sample in 16, a search of n-queens(12) by pipelines rewrites its records
// ~13,000 times; with one in 256, ~800 times, and takes a fifth less CPU at one thread.
inline constexpr unsigned nested_probe_sample_period = 256;

// The sampling period of a call at fold depth `depth`.
constexpr unsigned probe_period_at(unsigned depth) noexcept {
  return depth == 0 ? probe_sample_period : nested_probe_sample_period;
}
// A search cut short by a match learns its cost from the chunks before it only if they held
// this many items: 1 + 2 + ... + 32 items take seven clock reads (~1.3 ns an item at most).
inline constexpr std::size_t min_prefix_to_learn = 63;

// Shared by every task of one bridged operation; lives in the caller's frame.
//
// Cancellation protocol (exceptions and stop tokens):
//   I1  `cancelled` only goes false -> true, set by a leaf whose user code threw, before the
//       exception starts to unwind, or by the stop callback of the pipeline's stop token
//       (with_stop), on the thread that requests the stop.
//   I2  A leaf that reads true stops at its next block boundary and returns a partial result.
//       After an exception that result is never observed, because the throwing leaf's
//       exception propagates through every join up to the caller, and a join rethrows before
//       its caller reduces. After a stop the partial results are reduced as any others: the
//       operation returns what the blocks that ran produced (with_stop's documented result).
//   I3  The stop callback is registered in bridge's frame and unregistered before it
//       returns; std::stop_callback's destructor waits for a callback running concurrently,
//       so the callback never writes a bridge_state that is gone.
//   | tag | op                    | order   | why                                             |
//   |-----|-----------------------|---------|-------------------------------------------------|
//   | X1  | store true (leaf)     | relaxed | a hint: I2 holds whenever it is seen, and join's |
//   |     |                       |         | own latch orders the exception and the results   |
//   | X2  | load (block boundary) | relaxed | as X1; a late read costs one more block, no more |
//
// (X1 from a stop callback is the same relaxed store: a leaf that reads it late runs one more
// block, as after an exception.)
//
// `block_hint`, the block size the last refit chose (0: none yet, use check_every), is a
// hint for the next leaf's first block and nothing else: any value in
// [1, max_stop_check_items] is a correct block size, so it is stored and loaded relaxed, by
// any leaf, in any order.
struct bridge_state {
  std::atomic<bool> cancelled{false};  // X1, X2
  std::atomic<std::size_t> block_hint{0};
  std::size_t check_every = max_stop_check_items;
  // What a leaf needs to cut the rest of its range for an idle thread (fold_rest): the
  // operation's splitter parameters. `threads` < 2 (deterministic mode, one thread): never.
  std::size_t threads = 0;
  std::size_t min_len = 1;
  std::size_t max_len = 0;
  // A stop callback may set `cancelled` (with_stop): a one-thread run still folds in blocks.
  bool stoppable = false;
  // How many folds of other bridged operations the caller's items run in (fold_depth when
  // the operation started): its leaves fold at depth + 1, on whichever thread runs them.
  unsigned depth = 0;
};

// The fold depth of the code running on this thread: 0 outside any bridged operation, d + 1
// inside the items of an operation started at depth d (its probe, small case and leaves, on
// any thread). A pipeline nested in a pipeline's items (or in an algorithm's, or in a
// recursive search that calls itself through a pipeline) learns its cost per depth
// (call_site_cost): a per-item cost learned by the many cheap calls at the bottom of a
// recursion says nothing about the few calls at the top, whose items hold the whole tree.
// Exported like current_worker: a shared libweft's compiled engine runs leaves whose items
// start nested operations in the caller's code, and both must see one variable.
WEFT_API constinit inline thread_local unsigned fold_depth = 0;

// Sets fold_depth to `depth` + 1 while the items of an operation started at `depth` run on
// this thread; restores what the thread had before (a thread that waits inside one fold may
// run a leaf of another, at another depth).
class nested_fold {
 public:
  explicit nested_fold(unsigned depth) noexcept : saved_(fold_depth) { fold_depth = depth + 1; }
  nested_fold() noexcept : nested_fold(fold_depth) {}
  nested_fold(const nested_fold&) = delete;
  nested_fold& operator=(const nested_fold&) = delete;
  ~nested_fold() { fold_depth = saved_; }

 private:
  unsigned saved_;
};

// The stop callback of a pipeline with a stop token (I1, I3).
struct cancel_bridge_on_stop {
  bridge_state* st;
  void operator()() const noexcept { st->cancelled.store(true, std::memory_order_relaxed); }  // X1
};

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

// Learned cost of one item of one pipeline, in cost-clock ticks; 0 until first measured.
// Shared by every thread that runs the pipeline's type (both sides of a chain of two alike
// pipelines, a function searching from several threads), so it changes under a call.
//   L1  Every field is a hint, read and written relaxed: a stale value only makes one probe
//       start with a worse first chunk.
//   L2  No read of it is a length: a call sizes nothing from it without clamping to its own
//       input. (A search's unclocked first chunk that folded `fits` items unclamped, after
//       take_small_case had read a smaller value, would read past its input whenever another
//       thread relearned the record in between: in a chain of two alike filtered sides at
//       two threads, one side's probe relearns the fresh record while the other side is
//       between its two reads, and that side's predicate reads heap memory past its 3-int
//       vector. The iterator sweep under TSan exercises exactly that chain.)
struct learned_cost {
  std::atomic<float> ticks_per_item{0.0f};
  // How many items fit each probe budget: the small-input test is one load and one
  // compare, and a second load and the wake-up test only for inputs between the two.
  std::atomic<std::size_t> fits_cheap_fork{0};
  std::atomic<std::size_t> fits_waking_fork{0};
};

// What one call site learned, one record per fold depth (fold_depth): the calls of a
// recursion through a pipeline share a call site, and their items' cost grows with their
// distance from the bottom. Depths from learned_depths - 1 on share the last record: by then
// a call's items are the bottom's, or its items are so many that any record splits them.
inline constexpr unsigned learned_depths = 8;
struct call_site_cost {
  learned_cost by_depth[learned_depths];
  learned_cost& at(unsigned depth) noexcept {
    return by_depth[depth < learned_depths ? depth : learned_depths - 1];
  }
};

// One record per <producer, consumer> type pair, so in practice per call site...
template <class P, class C>
inline constinit call_site_cost learned_cost_of{};

// ...unless the consumer names its own: the algorithms' block consumers see their block
// function through a type-erased reference (one engine instantiation for every call site),
// and keep one record per block function type instead.
template <class C>
concept carries_learned_cost = requires(const C& c) {
  { c.cost_record() } -> std::same_as<call_site_cost*>;
};

template <class P, class C>
call_site_cost& learned_cost_for(const C& c) {
  if constexpr (carries_learned_cost<C>)
    return *c.cost_record();
  else
    return learned_cost_of<P, C>;
}

constinit inline thread_local unsigned probe_ticket = 0;

// Whether a call over n items takes the engine's small case (bridge, step 1): it runs the
// probe (no with_max_len, not deterministic), its learned cost at this thread's fold depth
// fits the probe budget (the larger one when a fork would have to wake a thread) and it is
// not the sampled call. If so the call is counted, as bridge counts it, and the caller folds
// everything on its own thread, inside a nested_fold (never with a stop token). for_blocks, reduce_blocks and the block searches (detail/algo/) ask this before
// calling the engine compiled into libweft, so that a small call never enters the library.
// `waking_fork`, if given, receives fork_would_wake() when this had to ask it.
WEFT_INLINE bool take_small_case(call_site_cost& site, std::size_t n,
                                 const plumbing::split_options& opt = {},
                                 std::optional<bool>* waking_fork = nullptr) noexcept {
  // A stop token is registered inside the engine (bridge), so such a call always enters it.
  if (opt.deterministic || opt.max_len || opt.stop.stop_possible()) return false;
  learned_cost& learned = site.at(fold_depth);
  if (n > learned.fits_cheap_fork.load(std::memory_order_relaxed)) {
    if (n > learned.fits_waking_fork.load(std::memory_order_relaxed)) return false;
    const bool wakes = fork_would_wake();
    if (waking_fork != nullptr) *waking_fork = wakes;
    if (!wakes) return false;
  }
  if ((probe_ticket + 1) % probe_period_at(fold_depth) == 0) return false;
  ++probe_ticket;
  return true;
}

}  // namespace weft::detail

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

  detail::call_site_cost& site = detail::learned_cost_for<P>(c);
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
