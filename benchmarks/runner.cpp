// SPDX-License-Identifier: MIT
// weft_bench's main: options, running each workload's peers, tables on stdout, progress on
// stderr, the CSV file and its metadata, the SVG charts, the summary and its verdict, and the
// report page (--report, --report-from).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>
#include <weft/weft.hpp>

#include "common.hpp"
#include "fib/config.hpp"
#include "idle/config.hpp"
#include "latency/config.hpp"
#include "options.hpp"
#include "algorithms.hpp"
#include "page.hpp"
#include "pipelines.hpp"
#include "plot.hpp"
#include "report.hpp"
#include "run_meta.hpp"
#include "summary.hpp"
#include "tasks.hpp"

namespace wb = weft_bench;

namespace {

using wb::options;

wb::csv_sink csv;

const std::vector<std::string> all_workloads = [] {
  std::vector<std::string> w{"fib", "latency", "idle"};
  for (const char* t : wb::task_workloads) w.push_back(t);
  for (const char* p : wb::pipeline_workloads) w.push_back(p);
  for (const char* a : wb::algorithm_workloads) w.push_back(a);
  return w;
}();

bool is_pipeline(const std::string& w) {
  return std::find(std::begin(wb::pipeline_workloads), std::end(wb::pipeline_workloads), w) !=
         std::end(wb::pipeline_workloads);
}

bool is_task(const std::string& w) {
  return std::find(std::begin(wb::task_workloads), std::end(wb::task_workloads), w) !=
         std::end(wb::task_workloads);
}

bool is_algorithm(const std::string& w) {
  return std::find(std::begin(wb::algorithm_workloads), std::end(wb::algorithm_workloads), w) !=
         std::end(wb::algorithm_workloads);
}

// The workloads that print a peer table at each thread count (and take --size).
bool is_table(const std::string& w) { return is_pipeline(w) || is_algorithm(w); }

[[noreturn]] void usage(int code) {
  std::string names;
  for (const auto& w : all_workloads) names += (names.empty() ? "" : ",") + w;
  std::fprintf(code == 0 ? stdout : stderr,
               "usage: weft_bench [--quick] [--workloads W,...] [--reps N] [--rounds R] "
               "[--threads 1,2] "
               "[--n N] [--size W=N,...] [--csv PATH] [--out DIR] [--check] [--report DIR]\n"
               "       weft_bench --report-from CSV [--out DIR]\n"
               "       weft_bench --replot CSV [--machine TEXT] [--workloads W,...] [--out DIR]\n"
               "  --workloads: any of %s (default: all)\n"
               "  --quick: fib(%d) instead of fib(%d), smaller iterator inputs (a tenth; "
               "unbalanced: half the items; tiny and medium: 500 calls in batches of 100; the "
               "sorts: a twentieth) and fewer samples (under a minute)\n"
               "  --reps: timed runs per cell of fib and the iterator workloads, and per idle "
               "peer (default 5)\n"
               "  --rounds: the iterator and algorithm workloads spread each cell's timed "
               "runs over R rounds in which every peer takes its turn, each round after its "
               "own warm-up (default 3; 1: each peer's runs back to back)\n"
               "  --threads: thread counts of fib and the iterator workloads (default: 1 and "
               "the hardware's count; idle uses the largest; latency uses the global pool's "
               "size)\n"
               "  --n: fib's n\n"
               "  --size: input size of iterator workloads, e.g. sum_sq=1000000,tiny=500 "
               "(items; map_filter_sum: the range's length; nqueens: n, at most 14; "
               "spawn_throughput, spawn_loop: tasks; async_fib: n; nested_nqueens: n; nested_grid: the "
               "grid's side)\n"
               "  --csv: raw results (default results/bench.csv), and beside it their "
               "metadata (results/bench.meta: machine, versions, command)\n"
               "  --out: folder of the SVG charts, bars_<T>t.svg and scaling.svg "
               "(default results)\n"
               "  --check: under each table, the project's bars (its internal targets, "
               "PASS/FAIL)\n"
               "  --report DIR: runs, then writes DIR/data/bench.csv and bench.meta, "
               "DIR/benchmarks.md and its charts in DIR/img (tools/bench --report docs/)\n"
               "  --report-from CSV: writes the page and charts of a saved run into --out "
               "(default: the folder above the CSV's) and measures nothing\n"
               "  --replot: draws the charts of a CSV that weft_bench wrote (one run's, or "
               "several concatenated) and measures nothing; --machine names the machine it "
               "was measured on in the charts' titles (default: from the CSV's .meta)\n"
               "progress (with the time left) goes to stderr, the tables to stdout; the run "
               "ends with a summary table and a verdict line\n",
               names.c_str(), wb::fib::quick_n, wb::fib::default_n);
  std::exit(code);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

[[noreturn]] void bad(const std::string& what, const std::string& s) {
  std::fprintf(stderr, "weft_bench: bad %s '%s'\n", what.c_str(), s.c_str());
  usage(2);
}

int to_int(const std::string& what, const std::string& s, int min) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end != s.c_str() && *end == '\0' && v >= min && v <= 1'000'000) return static_cast<int>(v);
  bad(what, s);
}

std::size_t to_size(const std::string& what, const std::string& s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (end != s.c_str() && *end == '\0' && s[0] != '-' && v >= 1 && v <= 4'000'000'000ULL)
    return static_cast<std::size_t>(v);
  bad(what, s);
}

options parse(int argc, char** argv) {
  options o;
  bool out_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") usage(0);
    if (arg == "--quick" || arg == "--check") {
      (arg == "--quick" ? o.quick : o.check) = true;
      continue;
    }
    if (arg != "--workloads" && arg != "--reps" && arg != "--rounds" && arg != "--n" &&
        arg != "--csv" && arg != "--threads" && arg != "--size" && arg != "--out" &&
        arg != "--replot" && arg != "--machine" && arg != "--report" && arg != "--report-from")
      bad("option", arg);
    if (i + 1 >= argc) bad("option (its value is missing)", arg);
    const std::string value = argv[++i];
    if (arg == "--workloads")
      o.workloads = split(value);
    else if (arg == "--reps")
      o.reps = to_int(arg, value, 1);
    else if (arg == "--rounds")
      o.rounds = to_int(arg, value, 1);
    else if (arg == "--n")
      o.n = to_int(arg, value, 2);
    else if (arg == "--csv")
      o.csv = value;
    else if (arg == "--out")
      o.out = value, out_given = true;
    else if (arg == "--replot")
      o.replot = value;
    else if (arg == "--machine")
      o.machine = value;
    else if (arg == "--report")
      o.report = value;
    else if (arg == "--report-from")
      o.report_from = value;
    else if (arg == "--size")
      for (const auto& kv : split(value)) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || !(is_table(kv.substr(0, eq)) || is_task(kv.substr(0, eq))))
          bad(arg, kv);
        o.sizes[kv.substr(0, eq)] = to_size(arg, kv.substr(eq + 1));
      }
    else
      for (const auto& t : split(value)) o.threads.push_back(to_int(arg, t, 1));
  }
  if (o.workloads.empty()) o.workloads = all_workloads;
  for (const auto& w : o.workloads)
    if (std::find(all_workloads.begin(), all_workloads.end(), w) == all_workloads.end())
      bad("workload", w);
  if (o.threads.empty())
    o.threads = {1, static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))};
  o.threads.erase(std::unique(o.threads.begin(), o.threads.end()), o.threads.end());
  if (o.n == 0) o.n = o.quick ? wb::fib::quick_n : wb::fib::default_n;
  namespace fs = std::filesystem;
  if (!o.report.empty()) o.csv = (fs::path(o.report) / "data" / "bench.csv").string();
  // --report-from DIR/data/bench.csv writes into DIR unless --out says otherwise.
  if (!o.report_from.empty() && !out_given) {
    const fs::path data = fs::path(o.report_from).parent_path();
    o.out = data.has_parent_path() ? data.parent_path().string() : ".";
  }
  return o;
}

void run_fib(const options& o) {
  namespace f = wb::fib;
  const int n = o.n;
  const double joins = static_cast<double>(f::num_joins(n));
  const std::string param = "n=" + std::to_string(n);
  std::printf(
      "\n== fib(%d): a join at every level, %.0f joins; median of %d runs after 1 warm-up "
      "==\n   ns/join: (time - seq) / joins, at 1 thread only; '-' where that is within 2 %% of "
      "seq\n%-7s %-5s %12s %10s %8s %8s\n",
      n, joins, o.reps, "threads", "peer", "time ms", "ns/join", "vs seq", "vs weft");
  std::fflush(stdout);
  wb::start_turn("fib", "seq", 1);
  const std::vector<double> seq_ns = f::run_seq(n, 1, o.reps);
  const double seq = wb::median(seq_ns);
  csv.add("fib", "seq", 1, param, "min_ns", *std::min_element(seq_ns.begin(), seq_ns.end()), "ns");
  csv.add("fib", "seq", 1, param, "max_ns", wb::max_of(seq_ns), "ns");
  std::vector<double> weft_at(3, std::nan(""));  // [1], [2]: for the bars
  for (const int t : o.threads) {
    std::vector<double> med;
    for (const auto& p : f::peers) {
      if (p.run == nullptr || p.run == &f::run_seq) {
        med.push_back(p.run == nullptr ? std::nan("") : seq);
        continue;
      }
      wb::start_turn("fib", p.name, t);
      const std::vector<double> ns = p.run(n, t, o.reps);
      med.push_back(wb::median(ns));
      csv.add("fib", p.name, t, param, "min_ns", *std::min_element(ns.begin(), ns.end()), "ns");
      csv.add("fib", p.name, t, param, "max_ns", wb::max_of(ns), "ns");
    }
    wb::progress_done();
    const double weft = med[1];
    if (t <= 2) weft_at[static_cast<std::size_t>(t)] = weft;
    for (std::size_t i = 0; i < med.size(); ++i) {
      const char* name = f::peers[i].name;
      const double per_join = i == 0 ? std::nan("") : wb::cost_per_fork(med[i], seq, joins, t);
      std::printf("%-7d %-5s %12s %10s %8s %8s\n", t, name, wb::cell(med[i] / 1e6, "%.2f").c_str(),
                  std::isnan(per_join) ? "-" : wb::cell(per_join, "%.2f").c_str(),
                  wb::cell(med[i] / seq, "%.2fx").c_str(),
                  wb::cell(med[i] / weft, "%.2fx").c_str());
      csv.add("fib", name, t, param, "median_ns", med[i], "ns");
      if (!std::isnan(per_join)) csv.add("fib", name, t, param, "ns_per_join", per_join, "ns");
    }
    std::fflush(stdout);
  }
  // A join over a call: both recursions out of line at every level (fib/config.hpp).
  wb::progress_note("fib", "seq-calls and weft-calls (no level inlined)");
  wb::wait_until_quiet();
  const double seq_calls = wb::median(f::run_seq_calls(n, 1, o.reps));
  csv.add("fib", "seq-calls", 1, param, "median_ns", seq_calls, "ns");
  std::vector<double> calls_at(3, std::nan(""));
  for (const int t : o.threads) {
    wb::wait_until_quiet();
    const double weft_calls = wb::median(f::run_weft_calls(n, t, o.reps));
    if (t <= 2) calls_at[static_cast<std::size_t>(t)] = weft_calls;
    csv.add("fib", "weft-calls", t, param, "median_ns", weft_calls, "ns");
  }
  wb::progress_done();
  std::printf("  every level a call (noinline): seq-calls %s ms", wb::cell(seq_calls / 1e6, "%.2f").c_str());
  for (const int t : o.threads)
    if (t <= 2)
      std::printf(", weft-calls @%d %s ms (%s)", t,
                  wb::cell(calls_at[static_cast<std::size_t>(t)] / 1e6, "%.2f").c_str(),
                  wb::cell(calls_at[static_cast<std::size_t>(t)] / seq_calls, "%.2fx").c_str());
  std::printf("\n");
  wb::bars_heading();
  wb::bar("weft fib(" + std::to_string(n) + ") @1 thread / seq", weft_at[1] / seq, 2.0, "x");
  wb::bar("weft fib(" + std::to_string(n) + ") @2 threads / weft @1", weft_at[2] / weft_at[1], 0.55,
          "x");
  wb::bar("weft-calls fib(" + std::to_string(n) + ") @1 thread / seq-calls", calls_at[1] / seq_calls,
          1.2, "x");
  wb::bar("weft-calls fib(" + std::to_string(n) + ") @2 threads / seq-calls", calls_at[2] / seq_calls,
          0.6, "x");
  if (std::find(o.threads.begin(), o.threads.end(), 2) == o.threads.end()) return;
  wb::measure_ceiling("fib", param, n, o.reps, &f::run_seq_copies, "@2/@1", csv);
}

void run_latency(const options& o) {
  namespace l = wb::latency;
  const int threads = static_cast<int>(weft::num_threads());  // the global pool's size
  const int awake = o.quick ? 2000 : 20000, asleep = o.quick ? 10 : std::max(20, 4 * o.reps);
  std::printf(
      "\n== latency: join([]{return 1;}, []{return 2;}) from main on %d threads (weft: the "
      "global pool); median ns per call ==\n   awake: %d back-to-back calls; asleep: %d "
      "calls, each after a %lld ms sleep; seq = both lambdas inline (the clock's floor)\n",
      threads, awake, asleep, static_cast<long long>(l::asleep_gap.count()));
  std::vector<l::samples> res;
  for (const auto& p : l::peers) {
    if (p.run != nullptr) wb::start_turn("latency", p.name, threads);
    res.push_back(p.run == nullptr ? l::samples{} : p.run(awake, asleep, threads));
  }
  wb::progress_done();
  const double weft_awake = wb::median(res[1].awake_ns), weft_asleep = wb::median(res[1].asleep_ns);
  std::printf("%-5s %10s %10s %12s %12s %12s\n", "peer", "awake ns", "asleep ns", "awake/weft",
              "asleep/weft", "asleep max");
  for (std::size_t i = 0; i < res.size(); ++i) {
    const char* name = l::peers[i].name;
    const double aw = wb::median(res[i].awake_ns), as = wb::median(res[i].asleep_ns);
    const double as_max = wb::max_of(res[i].asleep_ns);
    std::printf("%-5s %10s %10s %12s %12s %12s\n", name, wb::cell(aw, "%.0f").c_str(),
                wb::cell(as, "%.0f").c_str(), wb::cell(aw / weft_awake, "%.2fx").c_str(),
                wb::cell(as / weft_asleep, "%.2fx").c_str(), wb::cell(as_max, "%.0f").c_str());
    if (l::peers[i].run == nullptr) continue;
    csv.add("latency", name, threads, "awake", "median_ns", aw, "ns");
    csv.add("latency", name, threads, "asleep", "median_ns", as, "ns");
    csv.add("latency", name, threads, "asleep", "max_ns", as_max, "ns");
  }
}

void run_idle(const options& o) {
  namespace d = wb::idle;
  const int threads = *std::max_element(o.threads.begin(), o.threads.end());
  const int reps = o.quick ? std::min(3, o.reps) : o.reps;
  const std::string param = "burst=fib(" + std::to_string(wb::fib::burst_n) + ")";
  std::printf(
      "\n== idle: process CPU (user+sys) during a %lld ms sleep of main right after a "
      "fib(%d) burst on %d threads; %d runs ==\n%-11s %9s %12s %12s\n",
      static_cast<long long>(d::idle_time.count()), wb::fib::burst_n, threads, reps, "peer",
      "burst ms", "cpu ms med", "cpu ms max");
  std::vector<double> meds;
  for (const auto& p : d::peers) {
    std::vector<double> burst, cpu;
    if (p.run != nullptr) {
      wb::start_turn("idle", p.name, threads);
      for (const auto& s : p.run(threads, reps)) {
        burst.push_back(s.burst_ns / 1e6);
        cpu.push_back(s.cpu_ns / 1e6);
      }
      wb::progress_done();
    }
    meds.push_back(wb::median(cpu));
    std::printf("%-11s %9s %12s %12s\n", p.name, wb::cell(wb::median(burst), "%.2f").c_str(),
                wb::cell(meds.back(), "%.3f").c_str(), wb::cell(wb::max_of(cpu), "%.3f").c_str());
    if (p.run == nullptr) continue;
    csv.add("idle", p.name, threads, param, "cpu_ms_median", meds.back(), "ms");
    csv.add("idle", p.name, threads, param, "cpu_ms_max", wb::max_of(cpu), "ms");
  }
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  std::printf(
      "notes: seq = no burst (the floor); weft = a thread_pool kept alive while idle; "
      "weft-global = weft::join\n       from main on the global pool (%zu threads). All "
      "runtimes share this process: the other runtimes'\n       threads exist but are "
      "idle. OMP_WAIT_POLICY=%s.\n",
      weft::num_threads(),
      policy != nullptr ? policy : "unset (libgomp's default: spin a while, then sleep)");
  wb::bars_heading();
  wb::bar("weft thread_pool: idle CPU in 200 ms (median)", meds[1], 0.5, "ms");
  wb::bar("weft global pool: idle CPU in 200 ms (median)", meds[2], 0.5, "ms");
}

// The progress steps of a workload: one per built peer and thread count it measures.
int steps(const std::string& w, const options& o) {
  const int per_peer = static_cast<int>(o.threads.size());
  if (w == "fib") return 1 + (wb::built(wb::fib::peers) - 1) * per_peer;  // seq runs once
  if (w == "latency") return wb::built(wb::latency::peers);
  if (w == "idle") return wb::built(wb::idle::peers);
  if (is_task(w)) return wb::task_steps(w, o);
  if (is_algorithm(w)) return wb::algorithm_steps(w, o);
  return wb::pipeline_steps(w, o);
}

// The charted workloads of `o`, in suite order: those measured at each thread count (latency
// and idle are not).
std::vector<std::string> charted_workloads(const options& o) {
  std::vector<std::string> charted;
  for (const auto& w : o.workloads)
    if (w == "fib" || is_table(w) || is_task(w)) charted.push_back(w);
  return charted;
}

void print_plots(const std::vector<std::string>& svgs) {
  for (std::size_t i = 0; i < svgs.size(); ++i)
    std::printf("%s%s%s", i == 0 ? "plots: " : ", ", svgs[i].c_str(),
                i + 1 == svgs.size() ? "\n" : "");
}

// --replot: the charts of a saved run, at the thread counts it holds.
int replot(const options& o) {
  wb::csv_sink saved;
  if (!saved.read(o.replot)) return 1;
  std::vector<int> threads;
  for (const auto& r : saved.rows()) threads.push_back(r.threads);
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  wb::plot_meta meta = wb::plot_meta_of(wb::read_meta(wb::meta_path_of(o.replot)));
  if (!o.machine.empty())
    meta = {o.machine, "", false};
  else if (meta.date.empty())
    meta.machine = "measured elsewhere (" + o.replot + ")";
  const auto svgs = wb::write_plots(o.out, saved.rows(), charted_workloads(o), threads, meta);
  if (svgs.empty()) std::fprintf(stderr, "weft_bench: %s holds no chartable rows\n",
                                 o.replot.c_str());
  print_plots(svgs);
  return svgs.empty() ? 1 : 0;
}

// --report-from: the page and charts of a saved run, then its summary and verdict.
int report_from(const options& o) {
  std::vector<std::string> written;
  if (!wb::write_report(o.report_from, o.out, written)) return 1;
  for (const auto& f : written) std::printf("wrote %s\n", f.c_str());
  wb::csv_sink saved;
  saved.read(o.report_from);
  wb::print_summary(wb::summarize(saved.rows()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  if (!o.replot.empty()) return replot(o);
  if (!o.report_from.empty()) return report_from(o);
  wb::bars_enabled() = o.check;
  double load = 0;
  getloadavg(&load, 1);  // other processes on these cores skew every number: say so up front
  wb::run_meta meta = wb::this_run(o, argc, argv, load);
  std::printf(
      "weft_bench %s: %s, %s hardware threads, %s, oneTBB %s, OpenMP %s%s; load average %s at "
      "start\n",
      meta.get("weft").c_str(), meta.get("cpu").c_str(), meta.get("hardware_threads").c_str(),
      meta.get("compiler").c_str(), wb::tbb_version.c_str(), wb::omp_version.c_str(),
      o.quick ? " [--quick]" : "", meta.get("load").c_str());
  int total = 0;
  for (const auto& w : o.workloads) total += steps(w, o);
  wb::progress_plan(total);
  bool ok = true;
  for (const auto& w : o.workloads) {
    if (w == "fib") run_fib(o);
    if (w == "latency") run_latency(o);
    if (w == "idle") run_idle(o);
    if (is_task(w)) wb::run_task_workload(w, o, csv);
    if (is_pipeline(w)) ok = wb::run_pipeline(w, o, csv) && ok;
    if (is_algorithm(w)) ok = wb::run_algorithm(w, o, csv) && ok;
    std::fflush(stdout);
  }
  meta.add("duration", wb::clock_text(static_cast<double>(wb::now_ns() -
                                                         wb::progress_state().start_ns) /
                                      1e9));
  bool saved = csv.write(o.csv) && wb::write_meta(wb::meta_path_of(o.csv), meta);
  if (!o.report.empty()) {
    std::vector<std::string> written;
    saved = saved && wb::write_report(o.csv, o.report, written);
    if (!written.empty() && written.back().ends_with(".md")) {
      std::printf("report: %s\n", written.back().c_str());
      written.pop_back();
    }
    print_plots(written);
  } else {
    print_plots(wb::write_plots(o.out, csv.rows(), charted_workloads(o), o.threads,
                                wb::plot_meta_of(meta)));
  }
  wb::print_summary(wb::summarize(csv.rows()));
  if (!ok) std::printf("\n!! weft_bench: some peer computed a wrong result (see MISMATCH above)\n");
  return ok && saved ? 0 : 1;
}
