// SPDX-License-Identifier: MIT
// weft_bench's command line, parsed once in runner.cpp and read by every workload.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace weft_bench {

struct options {
  bool quick = false;
  std::vector<std::string> workloads;  // default: every workload, in suite order
  int reps = 5;
  int rounds = 3;  // the table workloads' calls, spread over turns of every peer
  std::vector<int> threads;  // default: 1 and the hardware's count
  std::string csv = "results/bench.csv";
  std::string out = "results";  // folder of the SVG charts
  int n = 0;  // fib size; 0: by --quick
  std::map<std::string, std::size_t> sizes;  // --size workload=N: an iterator workload's size
  std::string replot;   // --replot CSV: draw the charts of a saved CSV, measure nothing
  std::string machine;  // --machine TEXT: the charts' machine line when replotting
  bool check = false;   // --check: the project's bars (internal targets) under each table
  std::string report;       // --report DIR: the run's CSV, page and charts under DIR
  std::string report_from;  // --report-from CSV: the page and charts of a saved run

  // The size of an iterator workload: --size if given, else by --quick.
  std::size_t size_of(const std::string& workload, std::size_t full, std::size_t quick_size) const {
    const auto it = sizes.find(workload);
    return it != sizes.end() ? it->second : this->quick ? quick_size : full;
  }
};

}  // namespace weft_bench
