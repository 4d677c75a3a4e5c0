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
  std::string date;     // when the run started, UTC; empty: not said
  bool quick = false;
};

// The current time as "2026-11-24 10:02 UTC".
std::string utc_now();

// The files write_plots makes: <bars><T>t.svg and <scaling>; an empty name leaves its charts
// out.
struct plot_names {
  std::string bars = "bars_";
  std::string scaling = "scaling.svg";
};

// Writes, into `dir`, bars_<T>t.svg for each thread count T (each peer's median time over the
// fastest peer's at T, per workload, on a linear scale with values on the bars) and
// scaling.svg (one panel per workload: each parallel peer's speed-up over the fastest
// sequential peer against thread count). Draws the median_ns rows of `workloads` only;
// returns the paths written, none if there is nothing to draw.
std::vector<std::string> write_plots(const std::string& dir, const std::vector<csv_row>& rows,
                                     const std::vector<std::string>& workloads,
                                     const std::vector<int>& threads, const plot_meta& meta,
                                     const plot_names& names = {});

}  // namespace weft_bench
