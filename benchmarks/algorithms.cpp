// SPDX-License-Identifier: MIT
// The parallel-algorithm workloads: inputs, table headers and the bars of issue 4.
// Each workload is one `run_<name>` here and one folder of peers; the dispatch is at the end.
#include "algorithms.hpp"

#include <cstdio>

#include "for_each/config.hpp"
#include "pipeline_table.hpp"
#include "sort_u64/config.hpp"
#include "stable_sort_pairs/config.hpp"

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

}  // namespace

bool run_algorithm(const std::string& workload, const options& o, csv_sink& csv) {
  if (workload == "for_each") return run_for_each(o, csv);
  if (workload == "sort_u64") return run_sort_u64(o, csv);
  if (workload == "stable_sort_pairs") return run_stable_sort_pairs(o, csv);
  return true;
}

int algorithm_steps(const std::string& workload, const options& o) {
  const int per_peer = static_cast<int>(o.threads.size());
  if (workload == "for_each") return built(for_each::peers) * per_peer;
  if (workload == "sort_u64")
    return built(sort_u64::peers) * per_peer * static_cast<int>(std::size(sort_u64::inputs));
  if (workload == "stable_sort_pairs") return built(stable_sort_pairs::peers) * per_peer;
  return 0;
}

}  // namespace weft_bench
