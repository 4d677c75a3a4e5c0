// SPDX-License-Identifier: MIT
// Single-pass chunked scan with decoupled look-back (Merrill & Garland, 2016), on the CPU:
// the machinery under weft's scans and compaction algorithms. Walkthrough and proofs:
// docs/protocols/scan.md
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include "weft/detail/algo/claim.hpp"
#include "weft/join.hpp"

namespace weft::detail::algo {

// A chunk is reduced while it is in cache and scanned again from cache, so the input is
// read from memory once. The size is a cache budget, not a grain: the engine still decides
// whether to go parallel and how many claimers run. 64 KiB of input plus its output stays
// well inside a 512 KiB L2 and makes the per-chunk protocol cost (one claim, two release
// stores, usually one acquire load) negligible against the chunk's work.
inline constexpr std::size_t lookback_chunk_bytes = 64 * 1024;
inline constexpr std::size_t lookback_min_chunk = 256;
inline constexpr std::size_t lookback_max_chunk = 16384;

template <class V, std::size_t Bytes = lookback_chunk_bytes,
          std::size_t MaxItems = lookback_max_chunk>
constexpr std::size_t lookback_chunk_items() {
  constexpr std::size_t k = Bytes / sizeof(V);
  return k < lookback_min_chunk ? lookback_min_chunk : (k > MaxItems ? MaxItems : k);
}

// What a chunker provides to lookback_job<T, Chunker> (T: the carried value):
//   using scratch = ...;  per-claimer scratch, default-constructible (flags of one chunk)
//   T reduce(lo, hi, scratch&)   the aggregate of [lo, hi), lo < hi; may fill scratch
//   T aggregate(lo, hi)          the same without scratch (a waiter recomputing a late
//                                predecessor's chunk: may run at once with its owner's)
//   void scan(lo, hi, std::optional<T>& carry, scratch&, bool reduced)
//        writes the output of [lo, hi) given `carry` = the aggregate of [0, lo) (empty only
//        at lo == 0 without an initial value) and leaves in it the aggregate of [0, hi);
//        `reduced`: reduce(lo, hi, scratch) just ran on this claimer
//   T combine(T left, T right)   the associative operation (need not be commutative)
//
// Protocol. Shared by the claimers of one job: `next_` (the claim counter), `cancelled_`,
// and one slot per chunk of [begin_, n) with an atomic `state`.
//   I1  Chunks are claimed in increasing order (one counter), each by exactly one claim()
//       call, which is running when it claims.
//   I2  A slot's state goes empty -> aggregate -> prefix, or empty -> prefix. `aggregate`
//       and `prefix` are written once, before the release store that announces them, and
//       not touched again until the job is destroyed, after every claimer has returned.
//   I3  Between claiming chunk c and publishing its aggregate (or, when it scans c straight
//       from its own previous chunk's prefix, c's prefix) a claimer runs only the chunker's
//       sequential code on c: it waits for nothing. A claimer whose user code throws sets
//       `cancelled_` and never publishes.
//   I4  A claimer waits only for chunks j < c (claimed earlier, so by I1 owned by a running
//       call, which by I3 publishes without waiting or sets `cancelled_`), and it polls
//       `cancelled_` while it waits. Waits therefore form chains that strictly descend in
//       chunk index: no cycle, no spinning forever. When the input is not written by the
//       pass (may_recompute), a waiter stops waiting after lookback_patience_spins and
//       computes chunk j's aggregate from the input itself: the look-back then never
//       blocks on a descheduled thread.
//   I5  A claim() on a thread already inside claim() of the same job returns at once (user
//       code that runs weft work lets its thread steal; it must not then wait for a chunk
//       held by a frame below it on its own stack).
//   I6  The probe's carry is the prefix of "chunk -1": written by prefix() before fan_out(),
//       read-only afterwards (the engine's hand-off of the leaves orders it).
//   | tag | op                               | order   | why                                 |
//   |-----|----------------------------------|---------|-------------------------------------|
//   | L1  | next_.fetch_add (claim)          | relaxed | atomicity alone gives I1; no data   |
//   |     |                                  |         | travels with a claim (I6)           |
//   | L2  | state.store(aggregate / prefix)  | release | publishes the value written before  |
//   | L3  | state.load (look-back)           | acquire | pairs with L2: the value is whole   |
//   | L4  | cancelled_.store(true)           | relaxed | a hint to stop; the exception       |
//   |     |                                  |         | travels through join                |
//   | L5  | cancelled_.load (claim, wait)    | relaxed | coherence makes it seen eventually  |
//   | L6  | next_.load (exhausted)           | relaxed | a stale value costs one empty claim |
struct lookback_options {
  // Allocate the slots for the worst case up front, so that fan_out() cannot throw once
  // prefix() has started to move elements (the in-place compactions need that).
  bool slots_now = false;
  // The input is never written during the pass (no in-place output), so a waiter may compute
  // a late predecessor's aggregate itself (I4) instead of waiting for it.
  bool may_recompute = false;
};

// How long a waiter spins on an unpublished predecessor before computing its aggregate
// itself: about one chunk's reduction (a pause is ~20-40 ns), the ski-rental break-even.
inline constexpr unsigned lookback_patience_spins = 256;

enum : unsigned { slot_empty = 0, slot_aggregate = 1, slot_prefix = 2 };

template <class T>
struct alignas(64) lookback_slot {
  std::atomic<unsigned> state{slot_empty};
  std::optional<T> aggregate;
  std::optional<T> prefix;
};

template <class T, class Chunker>
class lookback_job {
 public:
  lookback_job(std::size_t n, std::size_t chunk, Chunker& ch, std::optional<T> init,
               lookback_options opt = {})
      : n_(n), chunk_(chunk), ch_(ch), carry_(std::move(init)), recompute_(opt.may_recompute) {
    if (opt.slots_now) {
      reserved_ = (n + chunk - 1) / chunk;
      slots_ = std::make_unique<lookback_slot<T>[]>(reserved_);
    }
  }

  void prefix(std::size_t lo, std::size_t hi) {
    typename Chunker::scratch s;
    ch_.scan(lo, hi, carry_, s, false);
  }

  void fan_out(std::size_t done) {
    begin_ = done;
    chunks_ = (n_ - done + chunk_ - 1) / chunk_;
    if (chunks_ > reserved_) slots_ = std::make_unique<lookback_slot<T>[]>(chunks_);
  }

  bool exhausted() const { return next_.load(std::memory_order_relaxed) >= chunks_; }  // L6

  void claim() {
    if (active == this) return;  // I5
    struct restore {
      const void* prev;
      ~restore() { active = prev; }
    } guard{active};
    active = this;
    try {
      claim_loop();
    } catch (...) {
      cancelled_.store(true, std::memory_order_relaxed);  // L4
      throw;
    }
  }

  /// The aggregate of the whole input, once the pass has returned normally.
  std::optional<T>& total() { return chunks_ == 0 ? carry_ : slots_[chunks_ - 1].prefix; }

 private:
  static constexpr std::size_t no_chunk = static_cast<std::size_t>(-1);
  static inline thread_local const void* active = nullptr;

  void claim_loop() {
    typename Chunker::scratch s;
    std::size_t last = no_chunk;
    std::optional<T> running;  // the prefix of chunk `last`
    while (!cancelled_.load(std::memory_order_relaxed)) {           // L5
      const std::size_t c = next_.fetch_add(1, std::memory_order_relaxed);  // L1
      if (c >= chunks_) return;
      const std::size_t lo = begin_ + c * chunk_;
      const std::size_t hi = lo + chunk_ < n_ ? lo + chunk_ : n_;
      lookback_slot<T>& slot = slots_[c];
      if (last != no_chunk && c == last + 1) {
        // Nobody claimed between our chunks: likely alone, so skip the reduction and scan
        // from our own prefix (a successor waits at most for this one chunk).
        ch_.scan(lo, hi, running, s, false);
        publish_prefix(slot, *running);
      } else {
        T agg = ch_.reduce(lo, hi, s);
        slot.aggregate.emplace(agg);
        slot.state.store(slot_aggregate, std::memory_order_release);  // L2
        std::optional<T> before;
        if (!look_back(c, before)) return;
        running.emplace(before ? ch_.combine(T(*before), std::move(agg)) : std::move(agg));
        publish_prefix(slot, *running);
        ch_.scan(lo, hi, before, s, true);
      }
      last = c;
      weft::offer_work();
    }
  }

  static void publish_prefix(lookback_slot<T>& slot, const T& v) {
    slot.prefix.emplace(v);
    slot.state.store(slot_prefix, std::memory_order_release);  // L2
  }

  // The aggregate of [0, begin of chunk c) into `acc`; false if the job was cancelled.
  bool look_back(std::size_t c, std::optional<T>& acc) {
    for (std::size_t j = c; j-- > 0;) {
      lookback_slot<T>& s = slots_[j];
      unsigned st;
      unsigned spins = 0;
      while ((st = s.state.load(std::memory_order_acquire)) == slot_empty) {  // L3
        if (cancelled_.load(std::memory_order_relaxed)) return false;           // L5
        if (recompute_ && spins >= lookback_patience_spins) break;
        spin_pause(spins);
      }
      if (st == slot_empty) {  // I4: the owner is late (descheduled?): do its reduction
        const std::size_t lo = begin_ + j * chunk_;
        const std::size_t hi = lo + chunk_ < n_ ? lo + chunk_ : n_;
        T v = ch_.aggregate(lo, hi);
        acc.emplace(acc ? ch_.combine(std::move(v), std::move(*acc)) : std::move(v));
        continue;
      }
      const T& v = st == slot_prefix ? *s.prefix : *s.aggregate;
      acc.emplace(acc ? ch_.combine(T(v), std::move(*acc)) : T(v));
      if (st == slot_prefix) return true;
    }
    if (carry_) acc.emplace(acc ? ch_.combine(T(*carry_), std::move(*acc)) : T(*carry_));
    return true;
  }

  std::size_t n_;
  std::size_t chunk_;
  Chunker& ch_;
  std::optional<T> carry_;  // I6
  bool recompute_;
  std::size_t begin_ = 0;
  std::size_t chunks_ = 0;
  std::size_t reserved_ = 0;
  std::unique_ptr<lookback_slot<T>[]> slots_;
  std::atomic<std::size_t> next_{0};      // L1, L6
  std::atomic<bool> cancelled_{false};    // L4, L5
};

/// Runs a chunker over [0, n) through the engine (claim_pass); returns the total aggregate
/// (the carry after the last element, `init` when n == 0).
template <class T, class Chunker>
std::optional<T> lookback_pass(std::size_t n, std::size_t chunk, Chunker& ch,
                               std::optional<T> init, lookback_options opt = {}) {
  lookback_job<T, Chunker> job(n, chunk, ch, std::move(init), opt);
  claim_pass(n, job);
  return std::move(job.total());
}

}  // namespace weft::detail::algo
