// SPDX-License-Identifier: MIT
// The task-parallel workloads of weft_bench (issue 39): their names and their entry point.
#pragma once

#include <string>
#include <vector>

#include "options.hpp"
#include "report.hpp"

namespace weft_bench {

inline constexpr const char* task_workloads[] = {"nqueens", "spawn_throughput", "spawn_loop",
                                                 "async_fib", "nested_nqueens", "nested_grid"};

// Runs one of task_workloads and prints its table and bars.
void run_task_workload(const std::string& workload, const options& o, csv_sink& csv);

// What this machine allows a workload's 2-thread figures: `copies(n, 1, reps)` and
// `copies(n, 2, reps)`, the sequential code alone and two copies side by side (run_seq_copies
// of fib and nqueens), back to back so that background load skews both alike. Adds the CSV
// rows (peer `seq-copies`, which the page's ceiling sentence reads) and prints the line,
// `against` naming what the ceiling bounds ("@2/@1").
using copies_fn = std::vector<double>(int n, int threads, int reps);
void measure_ceiling(const std::string& workload, const std::string& param, int n, int reps,
                     copies_fn* copies, const char* against, csv_sink& csv);

// The progress steps run_task_workload takes: one per built peer, thread count and round.
int task_steps(const std::string& workload, const options& o);

}  // namespace weft_bench
