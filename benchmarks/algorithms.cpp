// SPDX-License-Identifier: MIT
// The parallel-algorithm workloads: inputs, table headers and the bars of issue 4.
// Each workload is one `run_<name>` here and one folder of peers; the dispatch is at the end.
#include "algorithms.hpp"

#include <cstdio>

#include "copy_if/config.hpp"
#include "for_each/config.hpp"
#include "scan/config.hpp"
#include "pipeline_table.hpp"

namespace weft_bench {
namespace {

void print_heading(const std::string& what, int reps) {
  std::printf("\n== %s; median of %d runs after 1 warm-up ==\n", what.c_str(), reps);
}

// The bar every algorithm shares besides "as fast as the best peer": at 1 thread, never
// more than 1.1x the sequential std:: algorithm.
void bar_vs_seq_at_1t(const char* workload, const table_result& r) {
  bar(std::string("weft ") + workload + " @1t / seq", r.at("weft", 1) / r.at("seq", 1), 1.1, "x");
}

bool run_for_each(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("for_each", for_each::default_n, for_each::quick_n);
  const auto v = for_each::make_input(n);
  print_heading("for_each: x = x * a + b in place over " + std::to_string(n) +
                    " doubles (memory-bound)",
                o.reps);
  const auto r = run_table(
      {"for_each", "n=" + std::to_string(n), "ms", 1e6, "seq"}, for_each::peers, o.threads,
      [&](const auto& p, int t) { return p.run(v, t, o.reps); }, differs_fp, csv);
  std::printf("bars:\n");
  bar_vs_seq_at_1t("for_each", r);
  bar_vs_best_peer("for_each", r, o.threads);
  return r.ok;
}

bool run_scan(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("scan", scan::default_n, scan::quick_n);
  const auto v = scan::make_input(n);
  print_heading("scan: inclusive_scan (prefix sum) of " + std::to_string(n) +
                    " int64 into a second vector (memory-bound)",
                o.reps);
  const auto r = run_table(
      {"scan", "n=" + std::to_string(n), "ms", 1e6, "seq"}, scan::peers, o.threads,
      [&](const auto& p, int t) { return p.run(v, t, o.reps); },
      differs_exactly<std::uint64_t>, csv);
  std::printf("bars:\n");
  bar_vs_seq_at_1t("scan", r);
  bar("weft scan @2t / seq", r.at("weft", 2) / r.at("seq", 2), 0.8, "x");
  bar_vs_best_peer("scan", r, o.threads);
  return r.ok;
}

bool run_copy_if(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("copy_if", copy_if::default_n, copy_if::quick_n);
  const auto v = copy_if::make_input(n);
  print_heading("copy_if: the even ones (about half, unpredictably) of " + std::to_string(n) +
                    " int64 into a second vector, in order",
                o.reps);
  const auto r = run_table(
      {"copy_if", "n=" + std::to_string(n), "ms", 1e6, "seq"}, copy_if::peers, o.threads,
      [&](const auto& p, int t) { return p.run(v, t, o.reps); },
      differs_exactly<std::uint64_t>, csv);
  std::printf("bars:\n");
  bar_vs_seq_at_1t("copy_if", r);
  bar_vs_best_peer("copy_if", r, o.threads);
  return r.ok;
}

}  // namespace

bool run_algorithm(const std::string& workload, const options& o, csv_sink& csv) {
  if (workload == "for_each") return run_for_each(o, csv);
  if (workload == "scan") return run_scan(o, csv);
  if (workload == "copy_if") return run_copy_if(o, csv);
  return true;
}

int algorithm_steps(const std::string& workload, const options& o) {
  const int per_peer = static_cast<int>(o.threads.size());
  if (workload == "for_each") return built(for_each::peers) * per_peer;
  if (workload == "scan") return built(scan::peers) * per_peer;
  if (workload == "copy_if") return built(copy_if::peers) * per_peer;
  return 0;
}

}  // namespace weft_bench
