// SPDX-License-Identifier: MIT
// The parallel-algorithm workloads of weft_bench (issue 4): their names and their entry point.
#pragma once

#include <string>

#include "options.hpp"
#include "report.hpp"

namespace weft_bench {

inline constexpr const char* algorithm_workloads[] = {
    "for_each", "transform", "transform_reduce", "count_if", "find_if",
    "sort_u64", "stable_sort_pairs", "stable_sort_pairs_cmp", "sort_pairs_cmp", "scan", "copy_if"};

// Runs one of algorithm_workloads and prints its table and bars; false if some peer computed
// a result different from the sequential one.
bool run_algorithm(const std::string& workload, const options& o, csv_sink& csv);

// The progress steps run_algorithm takes: one per built peer and thread count.
int algorithm_steps(const std::string& workload, const options& o);

}  // namespace weft_bench
