// SPDX-License-Identifier: MIT
// In-order claiming over [0, n), for single-pass algorithms in which piece i needs a value
// from piece i - 1 (scans, compaction: kernels/lookback.hpp). plumbing::bridge still
// decides everything: its sequential probe runs a prefix of the input on the caller, in
// order; if it goes parallel, every leaf it forks becomes a claimer that takes the rest in
// increasing pieces from the job's own counter, instead of working on the index range the
// engine gave it (pieces must be taken in order, and an engine leaf is an arbitrary range).
#pragma once

#include <cstddef>
#include <thread>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/plumbing/bridge.hpp"
#include "weft/plumbing/value.hpp"

namespace weft::detail::algo {

// A claim job provides:
//   void prefix(lo, hi)  on the calling thread, for consecutive blocks from 0 upward: the
//                        engine's probe (and, when it stays sequential, the whole input)
//   void fan_out(done)   once, on the calling thread, when the engine goes parallel after
//                        prefix() covered [0, done); before any claim()
//   void claim()         on each parallel leaf, concurrently: takes pieces of [done, n)
//                        until none is left. Every call must be able to finish the job
//                        alone, since one call may claim everything before the others start
//   bool exhausted()     true once every piece has been claimed: leaves yet to start skip
// The engine's guarantees this relies on (plumbing/bridge.hpp): the root consumer's folder
// sees [0, k) in order, then the root is split once at k and only its right half is cut
// further; with one thread the root folder also receives [k, n). The leftmost parallel leaf
// runs on the caller and always starts, so every piece is claimed by some running call.
template <class Job>
struct claim_consumer {
  using result_type = no_result;
  Job* job;
  bool root;

  std::pair<claim_consumer, claim_consumer> split_at(std::size_t i) const {
    if (root) job->fan_out(i);
    return {{job, false}, {job, false}};
  }

  struct folder {
    Job* job;
    bool root;
    void run(std::size_t lo, std::size_t hi) const {
      if (root)
        job->prefix(lo, hi);
      else
        job->claim();
    }
    void consume(std::size_t, std::size_t i) { run(i, i + 1); }
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t lo, std::size_t hi) {
      if (lo < hi) run(p[lo], p[lo] + (hi - lo));
    }
    no_result complete() && { return {}; }
  };
  folder make_folder() const { return {job, root}; }
  bool full() const { return !root && job->exhausted(); }
  no_result reduce(no_result, no_result) const { return {}; }
};

/// Runs a claim job over [0, n) through the splitting engine (see claim_consumer above):
/// small inputs never leave the caller; large ones end with every pool thread claiming.
template <class Job>
void claim_pass(std::size_t n, Job& job) {
  if (n == 0) return;
  plumbing::bridge(index_producer{0, n}, claim_consumer<Job>{&job, true});
}

/// One step of a bounded-politeness spin: a pause instruction, and after many of them a
/// yield of the time slice (the awaited thread may have been descheduled by the OS).
inline void spin_pause(unsigned& spins) {
  if (++spins < 256) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
  } else {
    std::this_thread::yield();
  }
}

}  // namespace weft::detail::algo
