// SPDX-License-Identifier: MIT
// SVG charts of a run, written by weft_bench itself as plain SVG text (no plotting dependency).
// What they show and how to regenerate them: docs/benchmarks.md#plots
#pragma once

#include <string>
#include <vector>

#include "report.hpp"

namespace weft_bench {

// The second line of every chart's title.
struct plot_meta {
  std::string machine;  // CPU model, hardware threads, load average at start
  std::string date;     // when the run started, UTC
  bool quick = false;
};

// "AMD EPYC 7B13, 2 hardware threads, load 0.70 at start" (the CPU from /proc/cpuinfo).
std::string machine_description(double load);

// The current time as "2026-11-24 10:02 UTC".
std::string utc_now();

// Writes, into `dir`, bars_<T>t.svg for each thread count T (each peer's median time over the
// fastest sequential peer's at T, grouped by workload) and scaling.svg (one panel per workload:
// median time against thread count, one line per peer). Draws the median_ns rows of
// `workloads` only; returns the paths written, none if there is nothing to draw.
std::vector<std::string> write_plots(const std::string& dir, const std::vector<csv_row>& rows,
                                     const std::vector<std::string>& workloads,
                                     const std::vector<int>& threads, const plot_meta& meta);

}  // namespace weft_bench
