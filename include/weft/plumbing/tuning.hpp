// SPDX-License-Identifier: MIT
// The splitting engine's thresholds: the probe's budgets, the leaves' block lengths, how
// often a call samples its cost. Walkthrough: docs/plumbing.md#3-the-bridge-probe-first-then-split
#pragma once

#include <cstddef>

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

}  // namespace weft::detail
