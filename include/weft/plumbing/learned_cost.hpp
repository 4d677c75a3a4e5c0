// SPDX-License-Identifier: MIT
// What a call site learned about its items' cost (protocol L1-L2), and the small-input test
// that reads it: the engine's first step, and the block engine's before it enters libweft.
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <optional>

#include "weft/detail/config.hpp"
#include "weft/join.hpp"
#include "weft/plumbing/bridge_state.hpp"
#include "weft/plumbing/splitter.hpp"
#include "weft/plumbing/tuning.hpp"

namespace weft::detail {

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
// everything on its own thread, inside a nested_fold (never with a stop token). for_blocks, reduce_blocks and the block searches (kernels/) ask this before
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
