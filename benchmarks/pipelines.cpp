// SPDX-License-Identifier: MIT
// The iterator-pipeline workloads: inputs, table headers and the bars of issue 3.
#include "pipelines.hpp"

#include <algorithm>
#include <cstdio>
#include <weft/weft.hpp>

#include "collect/config.hpp"
#include "fib/config.hpp"
#include "find_early/config.hpp"
#include "map_filter_sum/config.hpp"
#include "pipeline_table.hpp"
#include "sum_sq/config.hpp"
#include "tiny/config.hpp"
#include "unbalanced/config.hpp"

namespace weft_bench {
namespace {

std::string param_n(std::size_t n) { return "n=" + std::to_string(n); }

// What the machine gives right now: copies of a sequential loop (fib) on the largest thread
// count, against one copy. Printed under every table, since other processes come and go.
void print_machine_line(const char* workload, const options& o, csv_sink& csv) {
  const int t = *std::max_element(o.threads.begin(), o.threads.end());
  if (t < 2) return;
  constexpr int n = 27;
  progress_note(workload, "machine check");
  const double one = median(fib::run_seq_copies(n, 1, 7));
  const double many = median(fib::run_seq_copies(n, t, 7));
  progress_done();
  csv.add(workload, "seq-copies", t, "fib(27)", "ratio", many / one, "x");
  std::printf(
      "  machine: %d copies of a sequential loop on %d std::threads took %.2fx one copy alone "
      "(1.00x: %d free cores)\n",
      t, t, many / one, t);
}

void print_heading(const std::string& what, int reps) {
  std::printf("\n== %s; median of %d runs after 1 warm-up ==\n", what.c_str(), reps);
}

bool run_sum_sq(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("sum_sq", sum_sq::default_n, sum_sq::quick_n);
  const auto v = sum_sq::make_input(n);
  print_heading("sum_sq: iter(v).map(x*x).sum() over " + std::to_string(n) +
                    " doubles (memory-bound); seq = one accumulator, seq8 = 8 accumulators",
                o.reps);
  const auto r = run_table(
      {"sum_sq", param_n(n), "ms", 1e6, "seq8"}, sum_sq::peers, o.threads,
      [&](const auto& p, int t) { return p.run(v, t, o.reps); }, differs_fp, csv);
  print_machine_line("sum_sq", o, csv);
  std::printf("bars:\n");
  bar("weft sum_sq @2t / best other peer @2t", r.at("weft", 2) / r.best_other(2), 1.05, "x");
  bar_vs_best_peer("sum_sq", r, o.threads);
  return r.ok;
}

bool run_map_filter_sum(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("map_filter_sum", map_filter_sum::default_n,
                                  map_filter_sum::quick_n);
  print_heading("map_filter_sum: range(0, " + std::to_string(n) +
                    ").filter(x%3==0).map(x*x%7).sum() on int64 (compute-bound)",
                o.reps);
  const auto r = run_table(
      {"map_filter_sum", param_n(n), "ms", 1e6, "seq"}, map_filter_sum::peers,
      o.threads,
      [&](const auto& p, int t) { return p.run(static_cast<std::int64_t>(n), t, o.reps); },
      differs_exactly<std::int64_t>, csv);
  print_machine_line("map_filter_sum", o, csv);
  std::printf("bars:\n");
  bar("weft map_filter_sum @1t / seq", r.at("weft", 1) / r.at("seq", 1), 1.02, "x");
  bar("weft map_filter_sum @2t / seq", r.at("weft", 2) / r.at("seq", 2), 0.51, "x");
  bar_vs_best_peer("map_filter_sum", r, o.threads);
  return r.ok;
}

bool run_tiny(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("tiny", tiny::default_n, tiny::default_n);
  const int calls = o.quick ? tiny::quick_calls : tiny::default_calls;
  const auto a = sum_sq::make_input(n);
  std::printf(
      "\n== tiny: %d calls of iter(a).map(x*x).sum() on %zu doubles from main; median ns per "
      "call over batches of %d ==\n   weft runs on the global pool (%zu threads) at every "
      "thread count; the others are capped at the count\n",
      calls, n, tiny::batch_size(calls), weft::num_threads());
  const auto r = run_table(
      {"tiny", param_n(n), "ns/call", 1, "seq8"}, tiny::peers, o.threads,
      [&](const auto& p, int t) { return p.run(a, t, calls); }, differs_fp, csv);
  print_machine_line("tiny", o, csv);
  std::printf("bars:\n");
  for (const int t : o.threads)
    bar("weft tiny @" + std::to_string(t) + "t / seq8", r.at("weft", t) / r.at("seq8", t), 1.2,
        "x");
  bar_vs_best_peer("tiny", r, o.threads);
  return r.ok;
}

bool run_unbalanced(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("unbalanced", unbalanced::default_n, unbalanced::quick_n);
  print_heading("unbalanced: range(0, " + std::to_string(n) +
                    ").map(cost).sum(), item i costs i*" +
                    std::to_string(unbalanced::rounds_per_index) + " dependent rounds",
                o.reps);
  const auto r = run_table(
      {"unbalanced", param_n(n), "ms", 1e6, "seq"}, unbalanced::peers, o.threads,
      [&](const auto& p, int t) { return p.run(static_cast<std::int64_t>(n), t, o.reps); },
      differs_exactly<std::uint64_t>, csv);
  print_machine_line("unbalanced", o, csv);
  std::printf("bars:\n");
  bar("weft unbalanced @2t / seq", r.at("weft", 2) / r.at("seq", 2), 0.51, "x");
  bar_vs_best_peer("unbalanced", r, o.threads);
  return r.ok;
}

bool run_find_early(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("find_early", find_early::default_n, find_early::quick_n);
  const int calls = o.quick ? find_early::quick_calls : find_early::default_calls;
  const auto v = find_early::make_input(n);
  std::printf(
      "\n== find_early: iter(v).find_first(x != 0) over %zu int32, the only match at index "
      "%zu; median us per call of %d after 1 warm-up ==\n   weft-pos = position_first\n",
      n, find_early::position, calls);
  const auto r = run_table(
      {"find_early", param_n(n), "us", 1e3, "seq"}, find_early::peers, o.threads,
      [&](const auto& p, int t) { return p.run(v, t, calls); }, differs_exactly<std::size_t>,
      csv);
  print_machine_line("find_early", o, csv);
  std::printf("bars:\n");
  for (const int t : o.threads) {
    bar("weft find_first @" + std::to_string(t) + "t", r.at("weft", t) / 1e3, 20, "us");
    bar("weft position_first @" + std::to_string(t) + "t", r.at("weft-pos", t) / 1e3, 20, "us");
  }
  bar_vs_best_peer("find_early", r, o.threads);
  return r.ok;
}

bool run_collect(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("collect", collect::default_n, collect::quick_n);
  const auto v = collect::make_input(n);
  print_heading("collect: iter(v).map(2x+1).to_vector() over " + std::to_string(n) +
                    " doubles, allocation included (memory-bound)",
                o.reps);
  const auto r = run_table(
      {"collect", param_n(n), "ms", 1e6, "seq"}, collect::peers, o.threads,
      [&](const auto& p, int t) { return p.run(v, t, o.reps); },
      [](const std::vector<double>& got, const std::vector<double>& want) -> std::string {
        if (got == want) return "";
        if (got.size() != want.size())
          return "made " + std::to_string(got.size()) + " items, expected " +
                 std::to_string(want.size());
        return "made different items";
      },
      csv);
  progress_note("collect", "the allocation alone");
  const double alloc = median(collect::run_alloc(n, o.reps));
  progress_done();
  csv.add("collect", "alloc", 1, param_n(n), "median_ns", alloc, "ns");
  std::printf(
      "  std::vector<double>(n) alone (allocation + sequential zero-fill, paid by every peer): "
      "%.3f ms = %.2fx seq\n",
      alloc / 1e6, alloc / r.at("seq", 1));
  print_machine_line("collect", o, csv);
  std::printf("bars:\n");
  bar("weft collect @2t / seq", r.at("weft", 2) / r.at("seq", 2), 0.6, "x");
  bar_vs_best_peer("collect", r, o.threads);
  return r.ok;
}

}  // namespace

bool run_pipeline(const std::string& workload, const options& o, csv_sink& csv) {
  if (workload == "sum_sq") return run_sum_sq(o, csv);
  if (workload == "map_filter_sum") return run_map_filter_sum(o, csv);
  if (workload == "tiny") return run_tiny(o, csv);
  if (workload == "unbalanced") return run_unbalanced(o, csv);
  if (workload == "find_early") return run_find_early(o, csv);
  if (workload == "collect") return run_collect(o, csv);
  return true;
}

int pipeline_steps(const std::string& workload, const options& o) {
  const int per_peer = static_cast<int>(o.threads.size());
  if (workload == "sum_sq") return built(sum_sq::peers) * per_peer;
  if (workload == "map_filter_sum") return built(map_filter_sum::peers) * per_peer;
  if (workload == "tiny") return built(tiny::peers) * per_peer;
  if (workload == "unbalanced") return built(unbalanced::peers) * per_peer;
  if (workload == "find_early") return built(find_early::peers) * per_peer;
  if (workload == "collect") return built(collect::peers) * per_peer;
  return 0;
}

}  // namespace weft_bench
