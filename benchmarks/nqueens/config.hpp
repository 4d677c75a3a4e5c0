// SPDX-License-Identifier: MIT
// n-queens by backtracking with one spawned task per placement at every level (no cutoff),
// written as each runtime's users write it: weft::scope, tbb::task_group, OpenMP tasks. The
// recursive function of the task_group and OpenMP forms takes the board by reference, as
// docs/guide.md's performance tips advise for every LIFO task scheduler: by value, the
// newest task reads its board in two 64-bit words right after the spawn wrote it field by
// field, a failed store-to-load forward that costs every peer alike. Each task form counts
// its solutions per thread (solution_counts), as the same tips advise: one atomic counter
// that every solution increments moves its cache line between the threads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common.hpp"

namespace weft_bench::nqueens {

inline constexpr int default_n = 12;
inline constexpr int quick_n = 10;

// Solutions for n = 0..14.
inline constexpr long solutions[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};

// One node of the search: the row to place and the attacked columns and diagonals.
struct board {
  int row;
  unsigned cols, d1, d2;
  unsigned free_columns(int n) const noexcept { return ~(cols | d1 | d2) & ((1u << n) - 1); }
  board place(unsigned bit) const noexcept {
    return {row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1};
  }
};

// Solutions found, one cache line per thread: a task adds to the line of the thread that
// runs it (its runtime's thread index), so no line moves between threads while the search
// runs. Each line has one writer: a relaxed load and store, no locked add.
class solution_counts {
 public:
  void add_one(std::size_t thread) noexcept {
    if (thread >= max_threads) {
      std::fprintf(stderr, "weft_bench: nqueens thread index %zu is over %zu\n", thread,
                   max_threads);
      std::abort();
    }
    std::atomic<long>& n = lines_[thread].value;
    n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  // After the search's tasks have all finished (their runtime's wait orders their writes).
  long total() const noexcept {
    long sum = 0;
    for (const line& l : lines_) sum += l.value.load(std::memory_order_relaxed);
    return sum;
  }

 private:
  static constexpr std::size_t max_threads = 256;
  struct alignas(64) line {
    std::atomic<long> value{0};
  };
  line lines_[max_threads];
};

inline void check(const char* peer_name, int n, long got) {
  if (got == solutions[n]) return;
  std::fprintf(stderr, "weft_bench: %s counted %ld solutions of %d-queens, expected %ld\n",
               peer_name, got, n, solutions[n]);
  std::abort();
}

// Nodes of the search tree (tasks spawned by the task peers), for the per-task cost.
inline long count_nodes(int n, board b) {
  long nodes = 1;
  if (b.row == n) return nodes;
  for (unsigned avail = b.free_columns(n); avail != 0; avail &= avail - 1)
    nodes += count_nodes(n, b.place(avail & (0u - avail)));
  return nodes;
}

// Wall ns of `reps` searches on `threads` threads, after one untimed warm-up.
using run_fn = std::vector<double>(int n, int threads, int reps);
run_fn run_seq;
// `threads` copies of the sequential search at once, one per std::thread: what this machine
// allows a 2-thread run against run_seq (fib/config.hpp's run_seq_copies, for this code).
run_fn run_seq_copies;
run_fn run_weft;       // weft::scope, one spawn per placement
run_fn run_weft_task_group;  // weft::task_group::run per placement
run_fn run_weft_join;  // nested weft::join over the candidate columns (for comparison)
run_fn run_tbb;        // tbb::task_group::run per placement
run_fn run_omp;        // #pragma omp task per placement

inline const peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"weft-tg", &run_weft_task_group},
    {"weft-join", &run_weft_join},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
    {"omp", WEFT_BENCH_IF_OMP(&run_omp)},
};

}  // namespace weft_bench::nqueens
