// SPDX-License-Identifier: MIT
// The task-parallel workloads of weft_bench (issue 39): their names and their entry point.
#pragma once

#include <string>

#include "options.hpp"
#include "report.hpp"

namespace weft_bench {

inline constexpr const char* task_workloads[] = {"nqueens", "spawn_throughput", "spawn_loop",
                                                 "async_fib", "nested_nqueens", "nested_grid"};

// Runs one of task_workloads and prints its table and bars.
void run_task_workload(const std::string& workload, const options& o, csv_sink& csv);

// The progress steps run_task_workload takes: one per built peer, thread count and round.
int task_steps(const std::string& workload, const options& o);

}  // namespace weft_bench
