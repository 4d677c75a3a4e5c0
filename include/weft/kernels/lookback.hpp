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

#include "weft/kernels/claim.hpp"
#include "weft/join.hpp"
#include "weft/pool.hpp"

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
//   T aggregate(lo, hi)          the same without scratch (a waiter recomputing a late or
//                                unclaimed predecessor's chunk, the tail's opener walking
//                                back: may run at once with its owner's scan)
//   void scan(lo, hi, std::optional<T>& carry, scratch&, bool reduced)
//        writes the output of [lo, hi) given `carry` = the aggregate of [0, lo) (empty only
//        at lo == 0 without an initial value) and leaves in it the aggregate of [0, hi);
//        `reduced`: reduce(lo, hi, scratch) just ran on this claimer
//   T combine(T left, T right)   the associative operation (need not be commutative)
//
// The tail (two-thread pools, input not written by the pass). Look-back reads every chunk
// twice, once to reduce it and once to scan it, because a chunk's successor may start before
// the chunk is scanned. With two threads that is mostly waste: one thread alone scans the
// head of the input in a single pass, and the other only has to learn the head's total to
// scan the rest in a single pass too. So the last two fifths of the chunks (the tail, from
// `head_end_`) have a counter of their own, and the second claimer to arrive opens the tail:
// it walks back from the tail's first chunk, reducing the head's chunks the head's claimer
// has not published (from the input: `may_recompute`) until it meets a published prefix, and
// then scans its chunks in one pass. The two meet in the head (the walk back reduces, which is
// quicker than the scan coming up); neither waits for the other. Whoever runs out of chunks
// takes from the other counter, as ordinary look-back claims. Bare loops on the 2-core
// reference machine (50 M int64, same process, medians of 15): reduce-then-scan look-back
// 20.9-21.9 ms, a reduce of the head by the second thread then a single pass over the rest
// 18.9-21.0, the sequential scan 23.3-27.3 (docs/protocols/scan.md#the-tail-pools-of-two).
// With three or more
// threads the head itself is shared, so its chunks are reduced anyway and the walk back is
// pure extra reading: the tail is only cut for pools of two.
//
// Protocol. Shared by the claimers of one job: the claim counters `next_` (head chunks,
// [0, head_end_)) and `tail_next_` (tail chunks, [head_end_, chunks_); head_end_ == chunks_
// when there is no tail), `arrivals_`, `cancelled_`, and one slot per chunk of [begin_, n)
// with an atomic `state`.
//   I1  Each counter hands out its chunks in increasing order, each chunk to exactly one
//       claim() call, which is running when it claims. A call takes from one counter until
//       it runs dry, then from the other, then returns.
//   I2  A slot's state goes empty -> aggregate -> prefix, or empty -> prefix. `aggregate`
//       and `prefix` are written once, before the release store that announces them, and
//       not touched again until the job is destroyed, after every claimer has returned.
//   I3  Between claiming chunk c and publishing its aggregate (or, when it scans c straight
//       from a prefix it holds, c's prefix) a claimer runs only the chunker's sequential
//       code on c: it waits for nothing. The one exception is the tail's first chunk, whose
//       claimer looks back before it scans; that happens only with a tail, hence only when
//       every wait is bounded (I4). A claimer whose user code throws sets `cancelled_` and
//       never publishes.
//   I4  Without a tail, a claimer waits only for chunks j < c, which came from the same
//       counter earlier, so by I1 are owned by a running call, which by I3 publishes
//       without waiting or sets `cancelled_`: waits form chains that strictly descend in
//       chunk index, with no cycle. Every waiter polls `cancelled_`. When the input is not
//       written by the pass (may_recompute), a waiter stops waiting after
//       lookback_patience_spins, or at once if chunk j is not claimed yet, and computes j's
//       aggregate from the input itself: then no wait is longer than the patience, the
//       look-back never blocks on a descheduled thread, and the tail's claims in any order
//       against the head's cannot deadlock. The tail is cut only with may_recompute.
//   I5  A claim() on a thread already inside claim() of the same job returns at once (user
//       code that runs weft work lets its thread steal; it must not then wait for a chunk
//       held by a frame below it on its own stack).
//   I6  The probe's carry is the prefix of "chunk -1": written by prefix() before fan_out(),
//       read-only afterwards (the engine's hand-off of the leaves orders it), as are
//       begin_, chunks_ and head_end_. Chunk 0's claimer scans it from the carry at once.
//   | tag | op                               | order   | why                                 |
//   |-----|----------------------------------|---------|-------------------------------------|
//   | L1  | next_ / tail_next_.fetch_add     | relaxed | atomicity alone gives I1; no data   |
//   |     | (claim)                          |         | travels with a claim (I6)           |
//   | L2  | state.store(aggregate / prefix)  | release | publishes the value written before  |
//   | L3  | state.load (look-back)           | acquire | pairs with L2: the value is whole   |
//   | L4  | cancelled_.store(true)           | relaxed | a hint to stop; the exception       |
//   |     |                                  |         | travels through join                |
//   | L5  | cancelled_.load (claim, wait)    | relaxed | coherence makes it seen eventually  |
//   | L6  | next_ / tail_next_.load          | relaxed | exhausted(): a stale value costs    |
//   |     | (exhausted, claimed)             |         | one empty claim; claimed(): one     |
//   |     |                                  |         | patience of spinning before a       |
//   |     |                                  |         | recompute that was right anyway     |
//   | L7  | arrivals_.fetch_add              | relaxed | a ticket: which call opens the tail |
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

// The tail's share of the chunks after the probe (two of five: with a reduce about half as
// dear as the scan, the head's single pass and the walk back plus the tail's pass end
// together at three fifths of the input) and the fewest chunks worth cutting it for.
inline constexpr std::size_t lookback_tail_fifths = 2;
inline constexpr std::size_t lookback_min_tail_chunks = 8;

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
    head_end_ = chunks_;
    if (recompute_ && chunks_ >= lookback_min_tail_chunks && weft::num_threads() == 2)
      head_end_ = chunks_ - chunks_ * lookback_tail_fifths / 5;
    tail_next_.store(head_end_, std::memory_order_relaxed);
    if (chunks_ > reserved_) slots_ = std::make_unique<lookback_slot<T>[]>(chunks_);
  }

  bool exhausted() const {  // L6
    return next_.load(std::memory_order_relaxed) >= head_end_ &&
           tail_next_.load(std::memory_order_relaxed) >= chunks_;
  }

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
    bool in_tail = head_end_ < chunks_ &&
                   arrivals_.fetch_add(1, std::memory_order_relaxed) == 1;  // L7
    bool switched = false;
    while (!cancelled_.load(std::memory_order_relaxed)) {  // L5
      std::atomic<std::size_t>& counter = in_tail ? tail_next_ : next_;
      const std::size_t c = counter.fetch_add(1, std::memory_order_relaxed);  // L1
      if (c >= (in_tail ? chunks_ : head_end_)) {
        if (switched || head_end_ == chunks_) return;
        switched = true;
        in_tail = !in_tail;
        continue;
      }
      const std::size_t lo = begin_ + c * chunk_;
      const std::size_t hi = lo + chunk_ < n_ ? lo + chunk_ : n_;
      lookback_slot<T>& slot = slots_[c];
      const bool opens_tail = c == head_end_ && in_tail && !switched;
      if (c == 0 || (last != no_chunk && c == last + 1) || opens_tail) {
        // The prefix is at hand (the probe's carry, our own previous chunk: nobody claimed
        // between, so we are likely alone) or, opening the tail, learnt by walking back
        // (I4: no wait there outlasts the patience): scan in one pass; a successor waits at
        // most for this chunk.
        if (c == 0) {
          running = carry_;  // I6
        } else if (opens_tail) {
          std::optional<T> before;
          if (!look_back(c, before)) return;
          running = std::move(before);
        }
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

  // Whether chunk j has been handed out by its counter (L6: a hint, see I4).
  bool claimed(std::size_t j) const {
    return j < head_end_ ? j < next_.load(std::memory_order_relaxed)
                         : j < tail_next_.load(std::memory_order_relaxed);
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
        if (recompute_ && (spins >= lookback_patience_spins || !claimed(j))) break;
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
  std::size_t head_end_ = 0;  // the tail's first chunk; chunks_ when there is no tail
  std::size_t reserved_ = 0;
  std::unique_ptr<lookback_slot<T>[]> slots_;
  std::atomic<std::size_t> next_{0};       // L1, L6
  std::atomic<std::size_t> tail_next_{0};  // L1, L6
  std::atomic<unsigned> arrivals_{0};      // L7
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
