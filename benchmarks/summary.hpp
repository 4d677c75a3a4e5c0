// SPDX-License-Identifier: MIT
// The verdict that ends a run and opens the report: one row per workload and thread count,
// weft's median against the fastest other peer, and one line counting where weft is ahead,
// tied or behind. Computed from CSV rows, so a live run and a regenerated report agree.
#pragma once

#include <string>
#include <vector>

#include "report.hpp"

namespace weft_bench {

// A ratio within this of 1 (after rounding to two decimals) is a tie.
inline constexpr double tie_band = 0.02;

struct summary_row {
  std::string group;  // the workload, or workload/input
  int threads;
  double weft_ns;
  std::string best_peer;  // the fastest peer that is not weft: a library or sequential code
  double best_ns;
  double seq_ns;  // the fastest sequential peer; NaN if the workload has none

  double ratio() const { return weft_ns / best_ns; }
};

enum class standing { ahead, tied, behind };

// ahead below 1 - tie_band, behind above 1 + tie_band, judged on the ratio as printed.
standing standing_of(const summary_row& r);

// The summary of the median_ns rows of `rows`: every workload measured at each thread count
// and with a peer besides weft (latency, idle and async_fib, weft against itself, have their
// own tables), in the order the rows come, thread counts ascending.
std::vector<summary_row> summarize(const std::vector<csv_row>& rows);

// What a reader calls a peer: "oneTBB", "OpenMP", "std::execution::par", "sequential".
std::string peer_label(const std::string& peer);

// "22.3 ms", "136 ns", "1.07 s"; `micro` spells microseconds ("us" or "µs").
std::string time_text(double ns, const char* micro = "us");

// "1.50x", "0.086x", "76x".
std::string ratio_text(double r);

// "verdict: weft is ahead in A of N rows, tied (within 2 %) in B, behind in C[: g Tt (R), ...]"
std::string verdict_line(const std::vector<summary_row>& rows);

// The summary table and the verdict line, on stdout.
void print_summary(const std::vector<summary_row>& rows);

}  // namespace weft_bench
