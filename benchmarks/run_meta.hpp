// SPDX-License-Identifier: MIT
// What a run was measured on and how: the metadata file next to its CSV (bench.csv ->
// bench.meta), one "key: value" line each, from which a report and its charts take the
// machine, the versions and the method, so that they regenerate exactly on any machine.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "options.hpp"
#include "plot.hpp"

namespace weft_bench {

struct run_meta {
  std::vector<std::pair<std::string, std::string>> fields;  // in file order; keys may repeat

  // The first value of `key`, or `fallback`.
  std::string get(const std::string& key, const std::string& fallback = "") const;
  // Every value of `key` (the "note" lines of a hand-described run).
  std::vector<std::string> all(const std::string& key) const;
  void add(const std::string& key, const std::string& value) { fields.emplace_back(key, value); }
};

// This machine and this run: CPU, hardware threads, OS, compiler, oneTBB and OpenMP versions,
// the command line, reps, rounds, threads, the load average at start, the date, and the
// commit from the environment variable WEFT_BENCH_COMMIT when tools/bench sets it. The
// runner adds "duration" (the run's wall time, m:ss) at the end.
run_meta this_run(const options& o, int argc, char** argv, double load);

// "results/bench.csv" -> "results/bench.meta".
std::string meta_path_of(const std::string& csv_path);

// Writes `m` to `path`; false, with the reason on stderr, if it cannot.
bool write_meta(const std::string& path, const run_meta& m);

// Reads `path`; an empty run_meta if it does not exist.
run_meta read_meta(const std::string& path);

// The charts' machine line and date.
plot_meta plot_meta_of(const run_meta& m);

// "201511" -> "4.5" (the OpenMP version of an _OPENMP date); the date itself if unknown.
std::string openmp_name(const std::string& openmp_date);

}  // namespace weft_bench
