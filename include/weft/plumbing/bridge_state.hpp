// SPDX-License-Identifier: MIT
// What the tasks of one bridged operation share (its cancellation protocol, tags X1-X2),
// and the fold depth of the code a thread runs.
#pragma once

#include <atomic>
#include <cstddef>

#include "weft/detail/config.hpp"
#include "weft/plumbing/tuning.hpp"

namespace weft::detail {

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
// (call_site_record): a per-item cost learned by the many cheap calls at the bottom of a
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

}  // namespace weft::detail
