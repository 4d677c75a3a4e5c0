// SPDX-License-Identifier: MIT
// The parallel-algorithm workloads: inputs, table headers and the bars of issue 4.
// Each workload is one `run_<name>` here and one folder of peers; the dispatch is at the end.
#include "algorithms.hpp"

#include <cstdio>

#include "count_if/config.hpp"
#include "find_if/config.hpp"
#include "for_each/config.hpp"
#include "transform_reduce/config.hpp"
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

bool run_transform_reduce(const options& o, csv_sink& csv) {
  const std::size_t n =
      o.size_of("transform_reduce", transform_reduce::default_n, transform_reduce::quick_n);
  const auto in = transform_reduce::make_input(n);
  print_heading("transform_reduce: the inner product of two vectors of " + std::to_string(n) +
                    " doubles (memory-bound)",
                o.reps);
  const auto r = run_table(
      {"transform_reduce", "n=" + std::to_string(n), "ms", 1e6, "seq"}, transform_reduce::peers,
      o.threads, [&](const auto& p, int t) { return p.run(in, t, o.reps); }, differs_fp, csv);
  std::printf("bars:\n");
  bar_vs_seq_at_1t("transform_reduce", r);
  bar_vs_best_peer("transform_reduce", r, o.threads);
  return r.ok;
}

bool run_count_if(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("count_if", count_if::default_n, count_if::quick_n);
  const auto v = count_if::make_input(n);
  print_heading("count_if: multiples of 3 among " + std::to_string(n) + " int32 (memory-bound)",
                o.reps);
  const auto r = run_table(
      {"count_if", "n=" + std::to_string(n), "ms", 1e6, "seq"}, count_if::peers, o.threads,
      [&](const auto& p, int t) { return p.run(v, t, o.reps); }, differs_exactly<std::int64_t>,
      csv);
  std::printf("bars:\n");
  bar_vs_seq_at_1t("count_if", r);
  bar_vs_best_peer("count_if", r, o.threads);
  return r.ok;
}

bool run_find_if(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("find_if", find_if::default_n, find_if::quick_n);
  const auto v = find_if::make_input(n);
  print_heading("find_if: the first nonzero of " + std::to_string(n) +
                    " int32, the only one at index " + std::to_string(find_if::match_position(n)),
                o.reps);
  const auto r = run_table(
      {"find_if", "n=" + std::to_string(n), "us", 1e3, "seq"}, find_if::peers, o.threads,
      [&](const auto& p, int t) { return p.run(v, t, o.reps); }, differs_exactly<std::size_t>,
      csv);
  std::printf("bars:\n");
  bar_vs_seq_at_1t("find_if", r);
  bar_vs_best_peer("find_if", r, o.threads);
  return r.ok;
}

}  // namespace

bool run_algorithm(const std::string& workload, const options& o, csv_sink& csv) {
  if (workload == "for_each") return run_for_each(o, csv);
  if (workload == "transform_reduce") return run_transform_reduce(o, csv);
  if (workload == "count_if") return run_count_if(o, csv);
  if (workload == "find_if") return run_find_if(o, csv);
  return true;
}

int algorithm_steps(const std::string& workload, const options& o) {
  const int per_peer = static_cast<int>(o.threads.size());
  if (workload == "for_each") return built(for_each::peers) * per_peer;
  if (workload == "transform_reduce") return built(transform_reduce::peers) * per_peer;
  if (workload == "count_if") return built(count_if::peers) * per_peer;
  if (workload == "find_if") return built(find_if::peers) * per_peer;
  return 0;
}

}  // namespace weft_bench
