// SPDX-License-Identifier: MIT
// The parallel-algorithm workloads: inputs, table headers and the bars of issue 4.
// Each workload is one entry of `workloads` here (sort_u64, over several inputs, has its own
// function) and one folder of peers; the dispatch is at the end.
#include "algorithms.hpp"

#include <cstdio>

#include "copy_if/config.hpp"
#include "count_if/config.hpp"
#include "find_if/config.hpp"
#include "for_each/config.hpp"
#include "pipeline_table.hpp"
#include "scan/config.hpp"
#include "sort_pairs_cmp/config.hpp"
#include "sort_u64/config.hpp"
#include "stable_sort_pairs/config.hpp"
#include "stable_sort_pairs_cmp/config.hpp"
#include "transform/config.hpp"
#include "transform_reduce/config.hpp"

namespace weft_bench {
namespace {

// The bar every algorithm shares besides "as fast as the best peer": at 1 thread, never
// more than 1.1x the sequential std:: algorithm.
constexpr double seq_1t_bar = 1.1;

constexpr table_workload workloads[] = {
    {.name = "for_each",
     .default_n = for_each::default_n,
     .quick_n = for_each::quick_n,
     .peers = peers_on<for_each::peers, for_each::make_input, differs_fp>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("for_each: x = x * a + b in place over " + std::to_string(n) +
                                     " doubles (memory-bound)",
                                 reps);
         },
     .seq_1t = seq_1t_bar},
    {.name = "transform",
     .default_n = transform::default_n,
     .quick_n = transform::quick_n,
     .peers = peers_on<transform::peers, for_each::make_input, differs_fp>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("transform: y = x * a + b from " + std::to_string(n) +
                                     " doubles into a second vector (memory-bound)",
                                 reps);
         },
     .seq_1t = seq_1t_bar},
    {.name = "transform_reduce",
     .default_n = transform_reduce::default_n,
     .quick_n = transform_reduce::quick_n,
     .peers = peers_on<transform_reduce::peers, transform_reduce::make_input, differs_fp>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("transform_reduce: the inner product of two vectors of " +
                                     std::to_string(n) + " doubles (memory-bound)",
                                 reps);
         },
     .seq_1t = seq_1t_bar},
    {.name = "count_if",
     .default_n = count_if::default_n,
     .quick_n = count_if::quick_n,
     .peers = peers_on<count_if::peers, count_if::make_input, differs_exactly<std::int64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading(
               "count_if: multiples of 3 among " + std::to_string(n) + " int32 (memory-bound)",
               reps);
         },
     .seq_1t = seq_1t_bar},
    {.name = "find_if",
     .default_n = find_if::default_n,
     .quick_n = find_if::quick_n,
     .peers = peers_on<find_if::peers, find_if::make_input, differs_exactly<std::size_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("find_if: the first nonzero of " + std::to_string(n) +
                                     " int32, the only one at index " +
                                     std::to_string(find_if::match_position(n)),
                                 reps);
         },
     .unit = "us",
     .unit_ns = 1e3,
     .seq_1t = seq_1t_bar},
    {.name = "stable_sort_pairs",
     .default_n = stable_sort_pairs::default_n,
     .quick_n = stable_sort_pairs::quick_n,
     .peers = peers_on<stable_sort_pairs::peers, stable_sort_pairs::make_input,
                       differs_exactly<std::uint64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("stable_sort_pairs: stable sort of " + std::to_string(n) +
                                     " (uint32 key < 2^20, uint32 value) pairs by key",
                                 reps);
         },
     .seq_1t = seq_1t_bar,
     // Issue 45: a projection lambda that may throw costs what the data member pointer does.
     .bars =
         [](const table_run& run) {
           for (const int t : run.o.threads)
             bar("weft-lambda stable_sort_pairs @" + std::to_string(t) + "t / weft",
                 run.r.at("weft-lambda", t) / run.r.at("weft", t), 1.1, "x");
         },
     .seconds_2t = 0.35},
    // Issue 45's bars for the comparison sorts: the parallel merge sort at 1 thread (its
    // tiles' run merge sort and the merge levels) against std::stable_sort, and at 2.
    {.name = "stable_sort_pairs_cmp",
     .default_n = stable_sort_pairs_cmp::default_n,
     .quick_n = stable_sort_pairs_cmp::quick_n,
     .peers = peers_on<stable_sort_pairs_cmp::peers, stable_sort_pairs_cmp::make_input,
                       differs_exactly<std::uint64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("stable_sort_pairs_cmp: stable sort of " + std::to_string(n) +
                                     " (uint32 key < 2^20, uint32 value) pairs by a comparator "
                                     "on the key",
                                 reps);
         },
     .seq_1t = 0.55,
     .seq_2t = 0.3},
    {.name = "sort_pairs_cmp",
     .default_n = sort_pairs_cmp::default_n,
     .quick_n = sort_pairs_cmp::quick_n,
     .peers = peers_on<sort_pairs_cmp::peers, sort_pairs_cmp::make_input,
                       differs_exactly<std::uint64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("sort_pairs_cmp: sort of " + std::to_string(n) +
                                     " (uint64 key, uint64 value) pairs by a comparator on "
                                     "the key",
                                 reps);
         },
     .seq_1t = 0.35,
     .seq_2t = 0.2},
    {.name = "scan",
     .default_n = scan::default_n,
     .quick_n = scan::quick_n,
     .peers = peers_on<scan::peers, scan::make_input, differs_exactly<std::uint64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("scan: inclusive_scan (prefix sum) of " + std::to_string(n) +
                                     " int64 into a second vector (memory-bound)",
                                 reps);
         },
     .seq_1t = seq_1t_bar,
     .seq_2t = 0.8},
    {.name = "copy_if",
     .default_n = copy_if::default_n,
     .quick_n = copy_if::quick_n,
     .peers = peers_on<copy_if::peers, copy_if::make_input, differs_exactly<std::uint64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("copy_if: the even ones (about half, unpredictably) of " +
                                     std::to_string(n) + " int64 into a second vector, in order",
                                 reps);
         },
     .seq_1t = seq_1t_bar},
};

// One table per input kind; the shared bars on the random input, weft against seq at each
// thread count on the others.
bool run_sort_u64(const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of("sort_u64", sort_u64::default_n, sort_u64::quick_n);
  bool ok = true;
  for (const sort_u64::input kind : sort_u64::inputs) {
    const auto v = sort_u64::make_input(n, kind);
    const std::string what = std::string("sort_u64/") + sort_u64::name(kind);
    const std::string heading =
        median_heading("sort_u64: sort " + std::to_string(n) + " uint64, " + sort_u64::name(kind) +
                           " input (untimed copy before each call)",
                       o.reps);
    std::fputs(heading.c_str(), stdout);
    const auto r = run_table(
        {"sort_u64", "n=" + std::to_string(n) + ";input=" + sort_u64::name(kind), "ms", 1e6, "seq"},
        sort_u64::peers, o.threads, o.reps, o.rounds,
        [&](const auto& p, int t, int calls) { return p.run(v, t, calls); },
        differs_exactly<std::uint64_t>, csv);
    ok = ok && r.ok;
    bars_heading();
    if (kind == sort_u64::input::random) {
      bar_vs_seq("sort_u64", r, 1, seq_1t_bar);
      bar_vs_best_peer("sort_u64", r, o.threads);
      if (n == sort_u64::default_n) bar_seconds_at_2t("sort_u64", r, 0.12);
    } else {
      for (const int t : o.threads)
        bar(what + " weft @" + std::to_string(t) + "t / seq", r.at("weft", t) / r.at("seq", t), 1.0,
            "x");
    }
  }
  return ok;
}

}  // namespace

bool run_algorithm(const std::string& workload, const options& o, csv_sink& csv) {
  if (workload == "sort_u64") return run_sort_u64(o, csv);
  return run_workload(workloads, workload, o, csv);
}

int algorithm_steps(const std::string& workload, const options& o) {
  if (workload == "sort_u64")
    return built(sort_u64::peers) * static_cast<int>(o.threads.size()) *
           static_cast<int>(std::size(sort_u64::inputs)) *
           static_cast<int>(round_shares(o.reps, o.rounds).size());
  return workload_steps(workloads, workload, o);
}

}  // namespace weft_bench
