// SPDX-License-Identifier: MIT
// The parallel-algorithm workloads: inputs, table headers and the bars of issue 4.
// Each workload is one `run_<name>` here and one folder of peers; the dispatch is at the end.
#include "algorithms.hpp"

#include <cstdio>

#include "copy_if/config.hpp"
#include "count_if/config.hpp"
#include "find_if/config.hpp"
#include "for_each/config.hpp"
#include "pipeline_table.hpp"
#include "scan/config.hpp"
#include "sort_u64/config.hpp"
#include "stable_sort_pairs/config.hpp"
#include "transform_reduce/config.hpp"

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

bool run_sort_u64(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("sort_u64", sort_u64::default_n, sort_u64::quick_n);
  bool ok = true;
  double best_2t_random = 0;
  for (const sort_u64::input kind : sort_u64::inputs) {
    const auto v = sort_u64::make_input(n, kind);
    const std::string what = std::string("sort_u64/") + sort_u64::name(kind);
    print_heading("sort_u64: sort " + std::to_string(n) + " uint64, " + sort_u64::name(kind) +
                      " input (untimed copy before each call)",
                  o.reps);
    const auto r = run_table(
        {"sort_u64", "n=" + std::to_string(n) + ";input=" + sort_u64::name(kind), "ms", 1e6,
         "seq"},
        sort_u64::peers, o.threads, [&](const auto& p, int t) { return p.run(v, t, o.reps); },
        differs_exactly<std::uint64_t>, csv);
    ok = ok && r.ok;
    std::printf("bars:\n");
    if (kind == sort_u64::input::random) {
      bar_vs_seq_at_1t("sort_u64", r);
      bar_vs_best_peer("sort_u64", r, o.threads);
      best_2t_random = r.at("weft", 2);
      if (n == sort_u64::default_n)
        bar("weft sort_u64 @2t (s)", best_2t_random / 1e9, 0.12, "s");
    } else {
      for (const int t : o.threads)
        bar(what + " weft @" + std::to_string(t) + "t / seq", r.at("weft", t) / r.at("seq", t),
            1.0, "x");
    }
  }
  return ok;
}

bool run_stable_sort_pairs(const options& o, csv_sink& csv) {
  const std::size_t n =
      o.size_of("stable_sort_pairs", stable_sort_pairs::default_n, stable_sort_pairs::quick_n);
  const auto v = stable_sort_pairs::make_input(n);
  print_heading("stable_sort_pairs: stable sort of " + std::to_string(n) +
                    " (uint32 key < 2^20, uint32 value) pairs by key",
                o.reps);
  const auto r = run_table(
      {"stable_sort_pairs", "n=" + std::to_string(n), "ms", 1e6, "seq"}, stable_sort_pairs::peers,
      o.threads, [&](const auto& p, int t) { return p.run(v, t, o.reps); },
      differs_exactly<std::uint64_t>, csv);
  std::printf("bars:\n");
  bar_vs_seq_at_1t("stable_sort_pairs", r);
  bar_vs_best_peer("stable_sort_pairs", r, o.threads);
  if (n == stable_sort_pairs::default_n)
    bar("weft stable_sort_pairs @2t (s)", r.at("weft", 2) / 1e9, 0.35, "s");
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
  if (workload == "transform_reduce") return run_transform_reduce(o, csv);
  if (workload == "count_if") return run_count_if(o, csv);
  if (workload == "find_if") return run_find_if(o, csv);
  if (workload == "sort_u64") return run_sort_u64(o, csv);
  if (workload == "stable_sort_pairs") return run_stable_sort_pairs(o, csv);
  if (workload == "scan") return run_scan(o, csv);
  if (workload == "copy_if") return run_copy_if(o, csv);
  return true;
}

int algorithm_steps(const std::string& workload, const options& o) {
  const int per_peer = static_cast<int>(o.threads.size());
  if (workload == "for_each") return built(for_each::peers) * per_peer;
  if (workload == "transform_reduce") return built(transform_reduce::peers) * per_peer;
  if (workload == "count_if") return built(count_if::peers) * per_peer;
  if (workload == "find_if") return built(find_if::peers) * per_peer;
  if (workload == "sort_u64")
    return built(sort_u64::peers) * per_peer * static_cast<int>(std::size(sort_u64::inputs));
  if (workload == "stable_sort_pairs") return built(stable_sort_pairs::peers) * per_peer;
  if (workload == "scan") return built(scan::peers) * per_peer;
  if (workload == "copy_if") return built(copy_if::peers) * per_peer;
  return 0;
}

}  // namespace weft_bench
