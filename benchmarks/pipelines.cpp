// SPDX-License-Identifier: MIT
// The iterator-pipeline workloads: inputs, table headers and the bars of issue 3.
// Each workload is one entry of `workloads` here and one folder of peers.
#include "pipelines.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <weft/weft.hpp>

#include "collect/config.hpp"
#include "fib/config.hpp"
#include "find_early/config.hpp"
#include "fine_sum/config.hpp"
#include "fold_chunks/config.hpp"
#include "fold_reduce/config.hpp"
#include "lines/config.hpp"
#include "map_filter_sum/config.hpp"
#include "noise_sum/config.hpp"
#include "par_bridge/config.hpp"
#include "pipeline_table.hpp"
#include "sum_sq/config.hpp"
#include "tiny/config.hpp"
#include "try_each/config.hpp"
#include "try_sum/config.hpp"
#include "unbalanced/config.hpp"

namespace weft_bench {
namespace {

// What the machine gives right now: copies of a sequential loop (fib) on the largest thread
// count, against one copy. Printed under every table, since other processes come and go.
void print_machine_line(const table_run& run) {
  const std::vector<int>& threads = run.o.threads;
  const int t = *std::max_element(threads.begin(), threads.end());
  if (t < 2) return;
  // fib(32): ~7 ms per copy, so that waking many helpers at each rep's barrier (tens of µs on
  // a VM) does not count as contention: fib(27) read 2-3x on 16 idle vCPUs.
  constexpr int n = 32;
  progress_note(run.workload, "machine check");
  const double one = median(fib::run_seq_copies(n, 1, 7));
  const double many = median(fib::run_seq_copies(n, t, 7));
  progress_done();
  run.csv.add(run.workload, "seq-copies", t, "fib(32)", "ratio", many / one, "x");
  std::printf(
      "  machine: %d copies of a sequential loop on %d std::threads took %.2fx one copy alone "
      "(1.00x: %d free cores)\n",
      t, t, many / one, t);
}

// install's cost per call, measured paired with the global pool (tiny::time_install_paired):
// tiny's notes print it and its bar reads it.
tiny::install_pairing& install_paired() {
  static tiny::install_pairing pairing{};
  return pairing;
}

void print_tiny_notes(const table_run& run) {
  print_machine_line(run);
  progress_note(run.workload, "install paired with the global pool");
  install_paired() = tiny::time_install_paired(sum_sq::make_input(run.n), run.o.quick ? 20 : 400);
  progress_done();
  const tiny::install_pairing& p = install_paired();
  run.csv.add(run.workload, "weft-install", static_cast<int>(weft::num_threads()),
              "n=" + std::to_string(run.n), "paired_ratio", p.ratio, "x");
  std::printf(
      "  install paired with the global pool (%d pairs of %d-call batches, alternating): "
      "%.1f ns against %.1f ns a call, %.3fx (median of the pairs' ratios)\n",
      p.pairs, tiny::batch_calls, p.install_ns, p.global_ns, p.ratio);
}

// The heading of tiny and medium: back-to-back calls from main, timed in batches.
std::string calls_from_main_heading(const std::string& name, std::size_t n, int calls) {
  return "\n== " + name + ": " + std::to_string(calls) + " calls of iter(a).map(x*x).sum() on " +
         std::to_string(n) + " doubles from main; median ns per call over batches of up to " +
         std::to_string(tiny::batch_calls) + " (5 or more a round)" +
         " ==\n   weft runs on the global pool (" + std::to_string(weft::num_threads()) +
         " threads) at every thread count; the others are capped at the count\n";
}

// The input of the workloads over the integers [0, n): the range's end.
std::int64_t range_end(std::size_t n) { return static_cast<std::int64_t>(n); }

std::string differs_items(const std::vector<double>& got, const std::vector<double>& want) {
  if (got == want) return "";
  if (got.size() != want.size())
    return "made " + std::to_string(got.size()) + " items, expected " + std::to_string(want.size());
  return "made different items";
}

// collect's notes: what the allocation alone costs, which the peers pay sequentially.
void collect_notes(const table_run& run) {
  progress_note("collect", "the allocation alone");
  const double alloc = median(collect::run_alloc(run.n, run.o.reps));
  progress_done();
  run.csv.add("collect", "alloc", 1, "n=" + std::to_string(run.n), "median_ns", alloc, "ns");
  const int first_threads = run.o.threads.empty() ? 1 : run.o.threads.front();
  std::printf(
      "  std::vector<double>(n) alone (allocation + sequential zero-fill as every peer but weft "
      "pays it; weft faults the pages in first, in parallel): "
      "%.3f ms = %.2fx seq @%dt\n",
      alloc / 1e6, alloc / run.r.at("seq", first_threads), first_threads);
  print_machine_line(run);
}

constexpr table_workload workloads[] = {
    {.name = "sum_sq",
     .default_n = sum_sq::default_n,
     .quick_n = sum_sq::quick_n,
     .peers = peers_on<sum_sq::peers, sum_sq::make_input, differs_fp>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("sum_sq: iter(v).map(x*x).sum() over " + std::to_string(n) +
                                     " doubles (memory-bound); seq = one accumulator, seq8 = 8 "
                                     "accumulators",
                                 reps);
         },
     .base = "seq8",
     .notes = print_machine_line,
     .bars =
         [](const table_run& run) {
           bar("weft sum_sq @2t / best other peer @2t", run.r.at("weft", 2) / run.r.best_other(2),
               1.05, "x");
         }},
    {.name = "fine_sum",
     .default_n = fine_sum::default_n,
     .quick_n = fine_sum::quick_n,
     .peers = peers_on<fine_sum::peers, sum_sq::make_input, differs_fp>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("fine_sum: iter(v).with_max_len(n/(64t)).map(x*x).sum() over " +
                                     std::to_string(n) +
                                     " doubles, 64 pieces a thread (oneTBB: simple_partitioner, "
                                     "OpenMP: a dynamic schedule, of the same pieces); seq = one "
                                     "piece, 8 accumulators",
                                 reps);
         },
     .notes = print_machine_line},
    {.name = "map_filter_sum",
     .default_n = map_filter_sum::default_n,
     .quick_n = map_filter_sum::quick_n,
     .peers = peers_on<map_filter_sum::peers, range_end, differs_exactly<std::int64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("map_filter_sum: range(0, " + std::to_string(n) +
                                     ").filter(x%3==0).map(x*x%7).sum() on int64 (compute-bound)",
                                 reps);
         },
     .notes = print_machine_line,
     .seq_1t = 1.02,
     .seq_2t = 0.51},
    {.name = "tiny",
     .default_n = tiny::default_n,
     .quick_n = tiny::default_n,
     .peers = peers_on<tiny::tiny_peers, sum_sq::make_input, differs_fp>(),
     .heading = [](std::size_t n, int calls) { return calls_from_main_heading("tiny", n, calls); },
     .unit = "ns/call",
     .unit_ns = 1,
     .base = "seq8",
     .default_calls = tiny::default_calls,
     .quick_calls = tiny::quick_calls,
     .notes = print_tiny_notes,
     .bars =
         [](const table_run& run) {
           for (const int t : run.o.threads)
             bar("weft tiny @" + std::to_string(t) + "t / seq8",
                 run.r.at("weft", t) / run.r.at("seq8", t), 1.2, "x");
           // The global pool configured from code costs what the environment's does.
           for (const int t : run.o.threads)
             bar("weft-cfg tiny @" + std::to_string(t) + "t / weft",
                 run.r.at("weft-cfg", t) / run.r.at("weft", t), 1.02, "x");
           // A call through install on a warm pool costs what one on the global pool does:
           // paired, since the table's rows of the two differ by a turn's state (notes).
           bar("weft-install tiny / weft, paired", install_paired().ratio, 1.02, "x");
         }},
    // tiny's calls on inputs worth forking for (~12 us of work a call): what a call from
    // main costs once the pool takes part, back to back.
    {.name = "medium",
     .default_n = tiny::medium_n,
     .quick_n = tiny::medium_n,
     .peers = peers_on<tiny::peers, sum_sq::make_input, differs_fp>(),
     .heading = [](std::size_t n,
                   int calls) { return calls_from_main_heading("medium", n, calls); },
     .unit = "ns/call",
     .unit_ns = 1,
     .base = "seq8",
     .default_calls = tiny::medium_calls,
     .quick_calls = tiny::quick_calls,
     .notes = print_machine_line},
    {.name = "unbalanced",
     .default_n = unbalanced::default_n,
     .quick_n = unbalanced::quick_n,
     .peers = peers_on<unbalanced::peers, range_end, differs_exactly<std::uint64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading(
               "unbalanced: range(0, " + std::to_string(n) + ").map(cost).sum(), item i costs i*" +
                   std::to_string(unbalanced::rounds_per_index) + " dependent rounds",
               reps);
         },
     .notes = print_machine_line,
     .seq_2t = 0.51},
    {.name = "find_early",
     .default_n = find_early::default_n,
     .quick_n = find_early::quick_n,
     .peers = peers_on<find_early::peers, find_early::make_input, differs_exactly<std::size_t>>(),
     .heading =
         [](std::size_t n, int calls) {
           return "\n== find_early: iter(v).find_first(x != 0) over " + std::to_string(n) +
                  " int32, the only match at index " + std::to_string(find_early::position) +
                  "; median us per call of " + std::to_string(calls) +
                  " ==\n   weft-pos = position_first\n";
         },
     .unit = "us",
     .unit_ns = 1e3,
     .default_calls = find_early::default_calls,
     .quick_calls = find_early::quick_calls,
     .notes = print_machine_line,
     .bars =
         [](const table_run& run) {
           for (const int t : run.o.threads) {
             bar("weft find_first @" + std::to_string(t) + "t", run.r.at("weft", t) / 1e3, 20,
                 "us");
             bar("weft position_first @" + std::to_string(t) + "t", run.r.at("weft-pos", t) / 1e3,
                 20, "us");
           }
         }},
    {.name = "collect",
     .default_n = collect::default_n,
     .quick_n = collect::quick_n,
     .peers = peers_on<collect::peers, collect::make_input, differs_items>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading("collect: iter(v).map(2x+1).to_vector() over " +
                                     std::to_string(n) +
                                     " doubles, allocation included (memory-bound); weft-into "
                                     "= collect_into one vector, reused",
                                 reps);
         },
     .notes = collect_notes,
     .seq_2t = 0.6},
    {.name = "noise_sum",
     .default_n = noise_sum::default_n,
     .quick_n = noise_sum::quick_n,
     .peers = peers_on<noise_sum::peers, noise_sum::make_input, noise_sum::differs_by_noise>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading(
               "noise_sum: iter(v).map_init(mt19937_64 per leaf, x + uniform).sum() over " +
                   std::to_string(n) +
                   " doubles; tbb: enumerable_thread_specific, stdpar: thread_local, omp: one "
                   "per thread",
               reps);
         },
     .notes = print_machine_line,
     .seq_1t = 1.1},
    // The fallible pipelines against the weft pipelines a user would write without them
    // (issue 43's bar: within 5 %). weft against weft, so not in the summary.
    {.name = "try_sum",
     .default_n = try_sum::default_n,
     .quick_n = try_sum::quick_n,
     .peers = peers_on<try_sum::peers, try_sum::make_input, differs_exactly<std::int64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading(
               "try_sum: iter(v).try_fold(0, checked_add).try_reduce(0, checked_add) over " +
                   std::to_string(n) +
                   " int64, no overflow; weft-red = reduce({sum, overflow}, fold, combine) by hand, "
                   "weft-map = map(optional).try_reduce",
               reps);
         },
     .notes = print_machine_line,
     .bars =
         [](const table_run& run) {
           for (const int t : run.o.threads)
             bar("weft try_fold.try_reduce @" + std::to_string(t) + "t / weft-red",
                 run.r.at("weft", t) / run.r.at("weft-red", t), 1.05, "x");
         }},
    {.name = "try_each",
     .default_n = try_each::default_n,
     .quick_n = try_each::quick_n,
     .peers = peers_on<try_each::peers, try_each::make_input, differs_exactly<std::size_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading(
               "try_each: iter(v).enumerate().try_for_each(check) over " + std::to_string(n) +
                   " int64, the only failure at the end; weft-find = "
                   "map(check).find_first(failed) by hand, weft-pos = position_first(!valid)",
               reps);
         },
     .notes = print_machine_line,
     .bars =
         [](const table_run& run) {
           for (const int t : run.o.threads)
             bar("weft try_for_each @" + std::to_string(t) + "t / weft-find",
                 run.r.at("weft", t) / run.r.at("weft-find", t), 1.05, "x");
         }},
    // A composed adaptor against the pipeline it stands for (issue 43's bar: within 5 %).
    {.name = "fold_chunks",
     .default_n = fold_chunks::default_n,
     .quick_n = fold_chunks::quick_n,
     .peers = peers_on<fold_chunks::peers, fold_chunks::make_input, differs_exactly<std::int64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading(
               "fold_chunks: iter(v).fold_chunks(16, 0, h * 31 + x).sum() over " +
                   std::to_string(n) + " int64; weft-hand = chunks(16).map(fold the run).sum()",
               reps);
         },
     .notes = print_machine_line,
     .bars =
         [](const table_run& run) {
           for (const int t : run.o.threads)
             bar("weft fold_chunks @" + std::to_string(t) + "t / weft-hand",
                 run.r.at("weft", t) / run.r.at("weft-hand", t), 1.05, "x");
         }},
    // Rayon's fold and reduce_with against the weft forms they stand for (issue 43's bar).
    {.name = "fold_reduce",
     .default_n = fold_reduce::default_n,
     .quick_n = fold_reduce::quick_n,
     .peers = peers_on<fold_reduce::peers, fold_reduce::make_input, differs_exactly<std::int64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading(
               "fold_reduce: iter(v).fold(0, s + x*x).reduce(0, +) over " + std::to_string(n) +
                   " int64; weft-red = reduce(0, s + x*x, +), weft-rw = map(x*x).reduce_with(+), "
                   "weft-map = map(x*x).reduce(0, +)",
               reps);
         },
     .notes = print_machine_line,
     .bars =
         [](const table_run& run) {
           for (const int t : run.o.threads) {
             bar("weft fold.reduce @" + std::to_string(t) + "t / weft-red",
                 run.r.at("weft", t) / run.r.at("weft-red", t), 1.05, "x");
             bar("weft reduce_with @" + std::to_string(t) + "t / weft-map",
                 run.r.at("weft-rw", t) / run.r.at("weft-map", t), 1.05, "x");
           }
         }},
    // A text's lines at memory bandwidth (issue 43's bar: within 10 % of the best split
    // written by hand at block boundaries, weft's own or a peer's).
    {.name = "lines",
     .default_n = lines::default_n,
     .quick_n = lines::quick_n,
     .peers = peers_on<lines::peers, lines::make_input, differs_exactly<std::size_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading(
               "lines: str(t).lines().map(size).sum() over a text of " + std::to_string(n) +
                   " bytes, lines of 1 to 120 bytes; weft-hand, tbb, omp = the split by hand "
                   "at block boundaries",
               reps);
         },
     .notes = print_machine_line,
     .bars =
         [](const table_run& run) {
           for (const int t : run.o.threads)
             bar("weft lines @" + std::to_string(t) + "t / best hand-written split",
                 run.r.at("weft", t) / std::fmin(run.r.best_other(t), run.r.at("weft-hand", t)),
                 1.10, "x");
         }},
    // A sequential source pulled by every thread (issue 43's bar: >= 1.8x faster than
    // sequential at 2 threads, i.e. weft @2t / seq <= 0.556).
    {.name = "par_bridge",
     .default_n = par_bridge::default_n,
     .quick_n = par_bridge::quick_n,
     .peers = peers_on<par_bridge::peers, par_bridge::make_input, differs_exactly<std::uint64_t>>(),
     .heading =
         [](std::size_t n, int reps) {
           return median_heading(
               "par_bridge: par_bridge(a generator of " + std::to_string(n) +
                   " numbers).map(~1 us of work).sum(); tbb = parallel_pipeline, omp = tasks "
                   "from a single producer",
               reps);
         },
     .default_calls = 1,
     .quick_calls = 2,
     .notes = print_machine_line,
     .seq_2t = 1.0 / 1.8},
};

}  // namespace

bool run_pipeline(const std::string& workload, const options& o, csv_sink& csv) {
  return run_workload(workloads, workload, o, csv);
}

int pipeline_steps(const std::string& workload, const options& o) {
  return workload_steps(workloads, workload, o);
}

}  // namespace weft_bench
