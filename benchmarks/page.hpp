// SPDX-License-Identifier: MIT
// The report page: docs/benchmarks.md and its charts, generated from one run's CSV and
// metadata (and the stored scaling run next to them), the same bytes on any machine.
// Commands: tools/bench --report DIR (measure, then write), weft_bench --report-from CSV.
#pragma once

#include <string>
#include <vector>

namespace weft_bench {

// Writes <dir>/benchmarks.md and its charts into <dir>/img/ from the run in `csv_path` (with
// the metadata of run_meta.hpp beside it) and the newest scaling-*.csv in the same folder,
// if any. Appends the paths written to `written`;
// false if a file could not be read or written.
bool write_report(const std::string& csv_path, const std::string& dir,
                  std::vector<std::string>& written);

// The page's length limit: a longer page is still written, with a warning on stderr. A full
// run has 31 workloads (62 summary rows, a table per task workload) and a stored 16-thread
// run; 480 lines hold them with the sections other docs link to.
inline constexpr int page_max_lines = 480;

}  // namespace weft_bench
