// SPDX-License-Identifier: MIT
// What a call site learned: one record per call site (site_record), read and written by the
// bridge, the block engine and the streamed stores. It holds its items' cost per fold depth
// (protocol L1-L2), which the small-input test and the probe read, and which of two ways of
// running the site costs less per byte per size of pool (protocol C1), which the kernels'
// streamed stores read (kernels/stream_store.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
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

// Which of two ways of running a call site costs less per byte (the kernels' streamed or
// plain stores: kernels/stream_store.hpp says why the answer differs between machines and
// sizes of pool). The first choice_first_calls calls alternate the two ways, and each later
// call takes whichever cost less per byte, trying the other one on every
// choice_resample_period-th call so that a change of load or of machine is seen. A way's
// cost is the lowest of its last choice_window calls: slow calls mostly come from outside
// the site (a page fault, a busy neighbour), so one slow call, or three, does not decide,
// and a lasting change is taken in after four calls of that way.
//   C1  Every field is a hint, read and written relaxed, by any thread that runs the site:
//       a stale or interleaved view only picks the slower way for a call.
//
//   | op                           | order   | why                                          |
//   |------------------------------|---------|----------------------------------------------|
//   | calls.fetch_add              | relaxed | a ticket for the alternation and the resample |
//   |                              |         | period: nothing is published through it       |
//   | recorded[].fetch_add         | relaxed | a ticket for a slot of the way's window       |
//   | window[][] load, store       | relaxed | hints (C1); two threads that record at once   |
//   |                              |         | write different slots                         |
inline constexpr std::uint32_t choice_first_calls = 4;
inline constexpr std::uint32_t choice_resample_period = 16;
inline constexpr std::uint32_t choice_window = 4;

// Call k of a site (counting from 0), given each way's cost per KiB (0 while unmeasured):
// the second way and the first in turn for the first calls, then the cheaper, the other
// every 16th. True: the second way.
constexpr bool second_way_on_call(std::uint32_t k, float first_ns, float second_ns) noexcept {
  if (k < choice_first_calls || first_ns == 0.0f || second_ns == 0.0f) return k % 2 == 0;
  const bool second_cheaper = second_ns < first_ns;
  return k % choice_resample_period == 0 ? !second_cheaper : second_cheaper;
}

struct learned_choice {
  std::atomic<std::uint32_t> calls{0};
  std::atomic<std::uint32_t> recorded[2]{};               // [0] first way, [1] second way
  std::atomic<float> window[2][choice_window]{};          // ns per KiB; 0: no call yet

  // The lowest cost per KiB of the way's last calls; 0 before its first.
  float cost_per_kib(bool second) const noexcept {
    float best = 0.0f;
    for (const std::atomic<float>& slot : window[second ? 1 : 0]) {
      const float v = slot.load(std::memory_order_relaxed);
      if (v > 0.0f && (best == 0.0f || v < best)) best = v;
    }
    return best;
  }
  // The way this call takes: true for the second.
  bool choose() noexcept {
    const std::uint32_t k = calls.fetch_add(1, std::memory_order_relaxed);
    return second_way_on_call(k, cost_per_kib(false), cost_per_kib(true));
  }
  void record(bool second, std::size_t bytes, std::chrono::nanoseconds took) noexcept {
    const float per_kib = std::max(static_cast<float>(took.count()) * 1024.0f /
                                       static_cast<float>(std::max<std::size_t>(bytes, 1)),
                                   1e-6f);
    const int way = second ? 1 : 0;
    const std::uint32_t slot = recorded[way].fetch_add(1, std::memory_order_relaxed);
    window[way][slot % choice_window].store(per_kib, std::memory_order_relaxed);
  }
};

// Pools of 1, 2, 3-4, 5-8, ... threads choose apart: what a way costs depends on how many
// threads share the memory bus.
inline constexpr std::size_t pool_size_classes = 8;
constexpr std::size_t pool_size_class(std::size_t threads) noexcept {
  const auto width = static_cast<std::size_t>(std::bit_width(threads > 0 ? threads - 1 : 0));
  return std::min(width, pool_size_classes - 1);
}

// What one call site learned. Its items' cost is kept per fold depth (fold_depth): the
// calls of a recursion through a pipeline share a call site, and their items' cost grows
// with their distance from the bottom. Depths from learned_depths - 1 on share the last
// record: by then a call's items are the bottom's, or its items are so many that any record
// splits them. Its choice between two ways is kept per size of pool.
inline constexpr unsigned learned_depths = 8;
struct call_site_record {
  learned_cost by_depth[learned_depths];
  learned_choice by_pool_size[pool_size_classes];
  learned_cost& at(unsigned depth) noexcept {
    return by_depth[depth < learned_depths ? depth : learned_depths - 1];
  }
  learned_choice& choice_for(std::size_t threads) noexcept {
    return by_pool_size[pool_size_class(threads)];
  }
};

// The record of the call site that Keys name: types that only that site instantiates with.
// The bridge keys a site by its <producer, consumer> type pair; the block engine by its
// block function's type (its consumers see the function through a type-erased reference,
// one engine instantiation for every call site); the streamed stores by their body's type
// or a stream_site of the types that make the site.
template <class... Keys>
inline constinit call_site_record site_record{};

// The record the bridge uses for producer P and consumer c: the consumer's own if it names
// one (the block consumers), else the pair's.
template <class C>
concept carries_learned_cost = requires(const C& c) {
  { c.cost_record() } -> std::same_as<call_site_record*>;
};

template <class P, class C>
call_site_record& learned_cost_for(const C& c) {
  if constexpr (carries_learned_cost<C>)
    return *c.cost_record();
  else
    return site_record<P, C>;
}

constinit inline thread_local unsigned probe_ticket = 0;

// Whether a call over n items takes the engine's small case (bridge, step 1): it runs the
// probe (no with_max_len, not deterministic), its learned cost at this thread's fold depth
// fits the probe budget (the larger one when a fork would have to wake a thread) and it is
// not the sampled call. If so the call is counted, as bridge counts it, and the caller folds
// everything on its own thread, inside a nested_fold (never with a stop token). for_blocks,
// reduce_blocks and the block searches (blocks.hpp) ask this before calling the engine
// compiled into libweft, so that a small call never enters the library.
// `waking_fork`, if given, receives fork_would_wake() when this had to ask it.
WEFT_INLINE bool take_small_case(call_site_record& site, std::size_t n,
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
