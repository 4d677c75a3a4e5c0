// SPDX-License-Identifier: MIT
// The iterator-pipeline workloads of weft_bench (issue 3): their names and their entry point.
#pragma once

#include <string>

#include "options.hpp"
#include "report.hpp"

namespace weft_bench {

inline constexpr const char* pipeline_workloads[] = {
    "sum_sq", "map_filter_sum", "tiny", "medium", "unbalanced", "find_early", "collect",
    "noise_sum", "fine_sum", "try_sum", "try_each", "fold_chunks", "fold_reduce", "lines", "par_bridge"};

// Runs one of pipeline_workloads and prints its table and bars; false if some peer computed
// a result different from the sequential one (the mismatch is printed where it happened).
bool run_pipeline(const std::string& workload, const options& o, csv_sink& csv);

// The progress steps run_pipeline takes: one per built peer and thread count.
int pipeline_steps(const std::string& workload, const options& o);

}  // namespace weft_bench
