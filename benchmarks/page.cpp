// SPDX-License-Identifier: MIT
// The report page of page.hpp. The figures come from the CSV and its metadata; the text
// around them is fixed here, stated as facts about the workloads and the method.
#include "page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "algorithms.hpp"
#include "fib/config.hpp"
#include "nqueens/config.hpp"
#include "pipelines.hpp"
#include "plot.hpp"
#include "report.hpp"
#include "run_meta.hpp"
#include "summary.hpp"
#include "tasks.hpp"

namespace weft_bench {
namespace {

namespace fs = std::filesystem;

// One stored run: its rows, metadata, and the medians of its groups.
struct run_data {
  std::string csv_name;  // the file name, linked as data/<csv_name>
  std::vector<csv_row> rows;
  run_meta meta;
  std::vector<int> threads;
  std::vector<std::string> groups;                                     // in the order the rows come
  std::map<std::tuple<std::string, std::string, int>, double> median;  // group, peer, threads

  double at(const std::string& group, const std::string& peer, int t) const {
    const auto it = median.find({group, peer, t});
    return it == median.end() ? std::nan("") : it->second;
  }
  // The first value of `metric` for (workload, peer, threads, param containing `param`).
  double value(const std::string& workload, const std::string& peer, int t,
               const std::string& metric, const std::string& param = "") const {
    for (const auto& r : rows)
      if (r.workload == workload && r.peer == peer && r.threads == t && r.metric == metric &&
          r.param.find(param) != std::string::npos)
        return r.value;
    return std::nan("");
  }
  // The param of the workload's first row ("n=50000000"), or "".
  std::string param_of(const std::string& group) const {
    for (const auto& r : rows)
      if (group_of(r) == group) return r.param;
    return "";
  }
  bool has(const std::string& workload) const {
    return std::any_of(rows.begin(), rows.end(),
                       [&](const csv_row& r) { return r.workload == workload; });
  }
};

bool load(const std::string& csv_path, run_data& d) {
  csv_sink sink;
  if (!sink.read(csv_path)) return false;
  d.csv_name = fs::path(csv_path).filename().string();
  d.rows = sink.rows();
  d.meta = read_meta(meta_path_of(csv_path));
  std::set<int> threads;
  for (const auto& r : d.rows) {
    if (r.workload == "latency" || r.workload == "idle") continue;
    threads.insert(r.threads);
    const std::string g = group_of(r);
    if (std::find(d.groups.begin(), d.groups.end(), g) == d.groups.end()) d.groups.push_back(g);
    if (r.metric == "median_ns" && std::isfinite(r.value))
      d.median[{g, r.peer, r.threads}] = r.value;
  }
  d.threads.assign(threads.begin(), threads.end());
  return true;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string t_ms(double ns) { return time_text(ns, "µs"); }

// 50000000 -> "50 M", 1000 -> "1,000", 12 -> "12".
std::string count_text(const std::string& digits) {
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return digits;
  const double v = std::stod(digits);
  if (v >= 1e6 && std::fmod(v, 1e5) == 0) return fmt("%g M", v / 1e6);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// "n=50000000;input=random" -> "50 M" (the input kind is the group's name already).
std::string size_text(const std::string& param) {
  const auto eq = param.find('=');
  if (eq == std::string::npos) return param;
  return count_text(param.substr(
      eq + 1, param.find(';') == std::string::npos ? std::string::npos : param.find(';') - eq - 1));
}

bool in(const char* const* list, std::size_t n, const std::string& w) {
  return std::find(list, list + n, w) != list + n;
}
bool is_pipeline(const std::string& w) {
  return in(pipeline_workloads, std::size(pipeline_workloads), w);
}
bool is_algorithm(const std::string& w) {
  return in(algorithm_workloads, std::size(algorithm_workloads), w);
}

std::string workload_of(const std::string& group) { return group.substr(0, group.find('/')); }

// What each table workload computes, its size given by the run.
const std::map<std::string, std::string>& descriptions() {
  static const std::map<std::string, std::string> d{
      {"sum_sq",
       "`iter(v).map(x*x).sum()` over n doubles (memory-bound); `seq8` and oneTBB's "
       "chunks sum with 8 accumulators, OpenMP with `simd reduction(+)`"},
      {"map_filter_sum", "`range(0, n).filter(x % 3 == 0).map(x*x % 7).sum()` (compute-bound)"},
      {"tiny",
       "back-to-back calls of `iter(a).map(x*x).sum()` on n doubles from `main`; time "
       "a call (`weft-cfg`: the global pool sized by `weft::configure_global` in the program "
       "instead of `WEFT_NUM_THREADS`; `weft-install`: each call through `pool.install` on a "
       "`thread_pool` of the same size; its bar reads the two paired, batch by batch in one "
       "loop: `paired_ratio` in the data)"},
      {"medium", "as tiny, on inputs worth forking for (about 12 µs of work a call)"},
      {"unbalanced",
       "`range(0, n).map(cost).sum()`, item i costing i x 25 dependent rounds "
       "(OpenMP: `schedule(dynamic)`)"},
      {"find_early",
       "`iter(v).find_first(x != 0)` over n int32, the match at index 1,000 "
       "(`weft-pos`: `position_first`); time a call"},
      {"collect",
       "`iter(v).map(2x+1).to_vector()` over n doubles, the output's allocation "
       "included (`weft-into`: `collect_into` one reused vector)"},
      {"noise_sum",
       "n doubles plus `uniform[0, 1)` from a `std::mt19937_64` per piece of work "
       "(weft `map_init`, oneTBB `enumerable_thread_specific`, OpenMP one per "
       "thread)"},
      {"fine_sum",
       "sum_sq's sum cut into 64 pieces per thread (weft `with_max_len`, oneTBB "
       "`simple_partitioner`, OpenMP `schedule(dynamic, 1)`): what a fine fork "
       "costs"},
      {"try_sum",
       "a sum that fails on overflow, over n int64 (none overflows): "
       "`try_fold(0, checked_add).try_reduce(0, checked_add)` against the same per-leaf "
       "accumulator by hand (`weft-red`: `reduce(identity, fold, combine)`)"},
      {"try_each",
       "`enumerate().try_for_each(check)` over n int64, the only failure at the end, "
       "against `map(check).find_first(failed)` by hand (`weft-find`)"},
      {"fold_chunks",
       "each run of 16 int64 folded in order (`h * 31 + x`), the folds summed: "
       "`fold_chunks(16, 0, fold)` against `chunks(16).map(fold the run)` by hand "
       "(`weft-hand`)"},
      {"fold_reduce",
       "the sum of x * x over n int64 by `fold(0, s + x * x).reduce(0, +)` against "
       "`reduce(0, s + x * x, +)` (`weft-red`), and by `map(x * x).reduce_with(+)` "
       "(`weft-rw`) against `map(x * x).reduce(0, +)` (`weft-map`)"},
      {"lines",
       "the lengths of a text's lines summed, n bytes of lines of 1 to 120 bytes: "
       "`weft::str(t).lines()` against the split written by hand at block boundaries "
       "(`weft-hand`, oneTBB, OpenMP), each block reading the lines that start in it"},
      {"par_bridge",
       "a sequential generator of n numbers, ~1 us of work on each, summed: "
       "`weft::par_bridge(generator)` against oneTBB's `parallel_pipeline` (a serial input "
       "filter) and OpenMP tasks made by one thread"},
      {"for_each", "x -> x * a + b in place over n doubles"},
      {"transform", "y = x * a + b from n doubles into a second vector"},
      {"transform_reduce", "the inner product of two vectors of n doubles"},
      {"count_if", "x % 3 == 0 over n int32"},
      {"find_if", "the only match at 1 % of n int32; time a call"},
      {"sort_u64",
       "n uint64: random, sorted, reversed and few-unique (4 keys) inputs, each "
       "sorted from a fresh copy"},
      {"stable_sort_pairs",
       "n (uint32 key < 2^20, uint32 value) pairs by key (oneTBB has no "
       "stable sort; `weft-lambda`: the key projected by a lambda that may throw, "
       "not `noexcept`, instead of `&pair::first`)"},
      {"stable_sort_pairs_cmp",
       "stable_sort_pairs's input by a comparator on the key (the std signature: "
       "the comparison path)"},
      {"sort_pairs_cmp",
       "n (uint64 key, uint64 value) pairs by a comparator on the key, unstable"},
      {"scan", "`inclusive_scan` of n int64 into a second vector"},
      {"copy_if",
       "the even elements (about half, in no predictable pattern) of n "
       "pseudo-random int64, in order"},
  };
  return d;
}

class page {
 public:
  page(const run_data& run, const run_data* ref, std::string ref_scaling, std::string ref_bars)
      : run_(run),
        ref_(ref),
        ref_scaling_(std::move(ref_scaling)),
        ref_bars_(std::move(ref_bars)),
        summary_(summarize(run.rows)) {}

  std::string text() {
    intro();
    summary();
    machine_and_method();
    reproducing();
    workloads();
    tasks();
    fib();
    latency();
    idle();
    scaling();
    plots();
    return md_.str();
  }

 private:
  const run_data& run_;
  const run_data* ref_;
  std::string ref_scaling_, ref_bars_;
  std::vector<summary_row> summary_;
  std::ostringstream md_;

  std::string meta(const char* key, const char* fallback = "unknown") const {
    return run_.meta.get(key, fallback);
  }

  // "an AMD EPYC 9B14, 2 hardware threads, Debian GNU/Linux 12 (bookworm), g++ 12.2.0 -O3,
  // oneTBB 2021.8.0 and OpenMP 4.5"
  static std::string machine_of(const run_meta& m) {
    return m.get("cpu", "an unnamed CPU") + ", " + m.get("hardware_threads", "?") +
           " hardware threads, " + m.get("os", "an unnamed OS") + "; " +
           m.get("compiler", "an unnamed compiler") + ", oneTBB " + m.get("tbb", "n/a") +
           ", OpenMP " + openmp_name(m.get("openmp", "n/a"));
  }

  void intro() {
    md_ << "# Benchmarks\n\n"
           "How fast weft is against the other ways of writing the same parallel C++: oneTBB,\n"
           "`std::execution::par` (libstdc++'s parallel algorithms, which run on oneTBB), "
           "OpenMP\n(libgomp) and the plain sequential loop. `weft_bench` runs every peer on "
           "the same work in\none process. This page is generated from one run, "
           "[`data/"
        << run_.csv_name << "`](data/" << run_.csv_name
        << ") and its metadata, by\n`tools/bench --report docs/`; edit the generator "
           "(`benchmarks/page.cpp`), not the page\n([reproducing](#reproducing)).\n\n";
    if (run_.meta.get("quick") == "yes")
      md_ << "> These figures come from a `--quick` run: smaller inputs and fewer samples.\n\n";
  }

  void summary() {
    md_ << "## Summary\n\n"
        << "weft " << meta("weft")
        << (run_.meta.get("commit").empty() ? "" : " at `" + meta("commit") + "`") << " on "
        << machine_of(run_.meta) << " (details [below](#machine-and-method)).\n"
        << "For each workload and thread count: weft's median time, the fastest other peer "
           "(oneTBB,\nOpenMP, `std::execution::par` or the sequential code, whichever is "
           "fastest) and its median,\nweft's time over it (under 1x: weft is faster; within "
           "2 % of 1x: a tie) and over the\nfastest sequential code.\n\n"
           "| workload | threads | weft | fastest other | its time | weft / fastest | "
           "weft / sequential | |\n|---|---:|---:|---|---:|---:|---:|---|\n";
    for (const auto& r : summary_) {
      const standing s = standing_of(r);
      md_ << "| " << r.group << " | " << r.threads << " | " << t_ms(r.weft_ns) << " | "
          << peer_label(r.best_peer) << " | " << t_ms(r.best_ns) << " | "
          << (s == standing::tied ? ratio_text(r.ratio()) : "**" + ratio_text(r.ratio()) + "**")
          << " | " << ratio_text(r.weft_ns / r.seq_ns) << " | "
          << (s == standing::ahead  ? "ahead"
              : s == standing::tied ? "tie"
                                    : "behind")
          << " |\n";
    }
    std::string verdict = verdict_line(summary_);
    verdict = verdict.substr(verdict.find(':') + 2);
    md_ << "\n**Verdict**: " << verdict << ".\n\n"
        << "latency and idle (below) are measured once, at the global pool's size; "
           "async_fib compares\nweft's `async` with its `join`. Per-workload tables: "
           "[workloads](#workloads); charts: [plots](#plots).\n\n";
  }

  // The machine lines of the run (copies of a sequential loop against one), as a range.
  std::string machine_lines() const {
    double lo = HUGE_VAL, hi = 0;
    for (const auto& r : run_.rows)
      if (r.peer == "seq-copies" && r.metric == "ratio")
        lo = std::min(lo, r.value), hi = std::max(hi, r.value);
    if (hi == 0) return "";
    return " In this run the machine lines read " + fmt("%.2fx", lo) +
           (hi > lo ? "-" + fmt("%.2fx", hi) : "") + ".";
  }

  void machine_and_method() {
    md_ << "## Machine and method\n\n"
        << "**Machine.** " << machine_of(run_.meta) << " (libgomp). The load average was "
        << meta("load")
        << " at the start of\nthe run; every comparison is between peers "
           "timed in the same rounds.\n\n"
        << "**Method.** `" << meta("command")
        << "`. Each cell is a median of timed calls after an\nuntimed warm-up: --reps calls ("
        << meta("reps") << " here) spread over --rounds rounds (" << meta("rounds")
        << " here). In every\nround each peer takes its turn, after its own warm-up; the "
           "sequential peer opens the round\nand the others follow in an order rotated by one "
           "each round, so that a change of the\nmachine's speed lasting seconds lands on every "
           "peer alike. A turn starts once the process is\nidle (no runtime's spinning threads "
           "are left from the previous turn); a turn whose calls\ntotal under 20 ms repeats them "
           "until they do, so short calls are medians of hundreds of\nsamples; a call whose "
           "warm-up takes over 2 s is timed once. Every peer's result is checked\nagainst the "
           "sequential one (`!! MISMATCH` and exit status 1 otherwise). Why each of these:\n"
           "[ADR 0009](decisions/0009-benchmark-method.md).\n\n"
        << "**Noise.** Under each table the runner prints a *machine line*: copies of a "
           "sequential loop\non all threads against one copy (1.00x: every core free); a row "
           "measured with the line\nwell above 1.00x measured a shared machine."
        << machine_lines()
        << " Tight loops also move\nwith their code placement: the same instructions run up "
           "to 10-12 % apart at one thread\ndepending on where the linker puts them, in weft's "
           "binary and in its peers'.\n\n";
  }

  void reproducing() {
    md_ << "## Reproducing\n\n"
           "```sh\n"
           "tools/bench                # every workload at 1 thread and all hardware threads"
        << (run_.meta.get("duration").empty() ? "" : " (this run: " + meta("duration") + ")")
        << "\n"
           "tools/bench --quick        # smaller inputs, fewer samples: under a minute\n"
           "tools/bench --report docs/ # the full run, then this page, its CSV and charts\n"
           "build/bench/benchmarks/weft_bench --report-from docs/data/bench.csv --out docs/\n"
           "```\n\n"
           "`tools/bench` builds the `bench` preset (`-O3`) into `build/bench` and runs "
           "`weft_bench` with\nits arguments (`--help` lists them): progress and the time left "
           "on stderr, the tables on\nstdout, ending with the [summary](#summary). `--report "
           "DIR` writes `DIR/data/bench.csv`, its\nmetadata `bench.meta`, `DIR/benchmarks.md` "
           "and `DIR/img/`; `--report-from` regenerates the page\nand charts from a stored CSV, "
           "and the ctest `bench.report_reproduce` checks that they match\nthe committed ones "
           "byte for byte. `--check` adds the project's internal targets (\"bars\").\n\n";
  }

  // One table per section: a row per workload and thread count, a column per peer.
  void peer_table(const std::vector<std::string>& groups) {
    std::vector<std::string> peers;
    for (const auto& g : groups)
      for (const auto& [key, ns] : run_.median)
        if (std::get<0>(key) == g && std::get<1>(key) != "seq-copies" &&
            std::get<1>(key) != "alloc" &&
            std::find(peers.begin(), peers.end(), std::get<1>(key)) == peers.end())
          peers.push_back(std::get<1>(key));
    static const std::vector<std::string> order{
        "seq", "seq8", "weft", "weft-cfg", "weft-install", "weft-lambda", "weft-pos", "weft-into",
        "tbb", "stdpar", "omp"};
    const auto rank = [](const std::string& p) {
      return std::find(order.begin(), order.end(), p) - order.begin();
    };
    std::sort(peers.begin(), peers.end(), [&](const std::string& a, const std::string& b) {
      return rank(a) != rank(b) ? rank(a) < rank(b) : a < b;
    });
    md_ << "| workload | threads |";
    for (const auto& p : peers) md_ << ' ' << p << " |";
    md_ << "\n|---|---:|";
    for (std::size_t i = 0; i < peers.size(); ++i) md_ << "---:|";
    md_ << '\n';
    for (const auto& g : groups)
      for (const int t : run_.threads) {
        double best = std::nan("");
        for (const auto& p : peers)
          if (const double v = run_.at(g, p, t); !std::isnan(v) && !(v >= best)) best = v;
        if (std::isnan(best)) continue;
        md_ << "| " << g << " | " << t << " |";
        for (const auto& p : peers) {
          const double v = run_.at(g, p, t);
          md_ << ' ' << (std::isnan(v) ? "" : v == best ? "**" + t_ms(v) + "**" : t_ms(v)) << " |";
        }
        md_ << '\n';
      }
    md_ << '\n';
  }

  void description_table(const std::vector<std::string>& groups) {
    md_ << "| workload | n | what each peer computes |\n|---|---:|---|\n";
    std::set<std::string> done;
    for (const auto& g : groups) {
      const std::string w = workload_of(g);
      if (!done.insert(w).second) continue;
      const auto it = descriptions().find(w);
      md_ << "| " << w << " | " << size_text(run_.param_of(g)) << " | "
          << (it == descriptions().end() ? "" : it->second) << " |\n";
    }
    md_ << '\n';
  }

  void workloads() {
    std::vector<std::string> pipes, algos;
    for (const auto& g : run_.groups) {
      if (is_pipeline(workload_of(g))) pipes.push_back(g);
      if (is_algorithm(workload_of(g))) algos.push_back(g);
    }
    md_ << "## Workloads\n\n"
           "Median times, the fastest of each row in bold; `seq` is the sequential loop, "
           "`stdpar`\n`std::execution::par`, `tbb` oneTBB, `omp` OpenMP.\n\n"
           "### Iterator pipelines\n\n"
           "weft runs inside a `thread_pool` of the given size, except `tiny` and `medium`, "
           "which call\nfrom `main` on the global pool. The oneTBB peers are `parallel_reduce` "
           "/ `parallel_for`,\nOpenMP `parallel for` with the matching reduction.\n\n";
    description_table(pipes);
    peer_table(pipes);
    md_ << "### Algorithms\n\n"
           "weft's `weft::par` overloads against the `std::` algorithm without a policy, the "
           "same with\n`std::execution::par`, oneTBB (`parallel_for`, `parallel_reduce`, "
           "`parallel_scan`,\n`parallel_sort`) and OpenMP. Every peer writes into its own "
           "output, allocated before the\ntiming.\n\n";
    description_table(algos);
    peer_table(algos);
    md_ << "Why the sorts, the scan and `copy_if` win by more than parallelism (radix sorts "
           "with\nstreamed scatters, a single-pass look-back scan, branch-free compaction): "
           "[algorithms](algorithms.md).\n\n";
  }

  // The run's ceiling for 2-thread figures of `w`: two copies of its sequential code on two
  // std::threads against one copy alone (its seq-copies rows), when the run has them.
  void ceiling(const std::string& w, const std::string& code, const std::string& of) {
    const double one = run_.value(w, "seq-copies", 1, "median_ns");
    const double two = run_.value(w, "seq-copies", 2, "median_ns");
    if (std::isnan(one) || std::isnan(two)) return;
    md_ << "Ceiling: two copies of the sequential " << code << " on two `std::thread`s took "
        << fmt("%.2fx", two / one) << " one copy alone, so no runtime can beat "
        << fmt("%.2fx", two / one / 2) << " " << of << " at two here.\n\n";
  }

  // A row per thread count, a column per peer: its median and, in brackets, its time over
  // the `base` peer's at the same count.
  void row_table(const std::string& w, const std::vector<std::string>& peers,
                 const std::string& base) {
    md_ << "| threads |";
    for (const auto& p : peers) md_ << ' ' << p << " |";
    md_ << "\n|---:|";
    for (std::size_t i = 0; i < peers.size(); ++i) md_ << "---:|";
    md_ << '\n';
    for (const int t : run_.threads) {
      md_ << "| " << t << " |";
      for (const auto& p : peers) {
        const double v = run_.at(w, p, t);
        md_ << ' '
            << (std::isnan(v) ? "" : t_ms(v) + " (" + ratio_text(v / run_.at(w, base, t)) + ")")
            << " |";
      }
      md_ << '\n';
    }
    md_ << '\n';
  }

  // "3.3 ns" per fork of `peer` at one thread, or "-" (cost_per_fork).
  std::string per_fork(const std::string& w, const std::string& peer, double forks) const {
    const double v = cost_per_fork(run_.at(w, peer, 1), run_.at(w, "seq", 1), forks, 1);
    return std::isnan(v) ? "-" : fmt(v < 10 ? "%.2f ns" : "%.1f ns", v);
  }

  void tasks() {
    md_ << "## Task parallelism: nqueens and spawn throughput\n\n";
    if (run_.has("nqueens")) {
      const std::string n = size_text(run_.param_of("nqueens"));
      md_ << "`nqueens(" << n
          << ")`: a backtracking search that forks one task per placement at every level, "
             "no\ncutoff, written as each runtime's users write it: `weft::scope` + "
             "`task_scope::spawn`\n(weft), `weft::task_group::run` (weft-tg), "
             "`tbb::task_group::run`, `#pragma omp task`;\nweft-join splits the candidate "
             "columns with nested `weft::join`. The task_group, oneTBB and OpenMP forms\n"
             "pass the board on by reference, as any LIFO task scheduler wants "
             "([performance tips](guide.md#performance-tips)).\n";
      const double tasks =
          static_cast<double>(nqueens::count_nodes(std::stoi(n), nqueens::board{0, 0, 0, 0}));
      md_ << "Median times (and over the sequential search's); " << count_text(fmt("%.0f", tasks))
          << " tasks, at one thread " << per_fork("nqueens", "weft", tasks)
          << " a task over the sequential search (weft-tg " << per_fork("nqueens", "weft-tg", tasks)
          << ", oneTBB " << per_fork("nqueens", "tbb", tasks) << ", OpenMP "
          << per_fork("nqueens", "omp", tasks) << ").\n\n";
      row_table("nqueens", {"seq", "weft", "weft-tg", "weft-join", "tbb", "omp"}, "seq");
      ceiling("nqueens", "search", "of the sequential search");
      md_ << "A task spawned inside its own scope is pushed privately and counted only when "
             "published,\nits block comes from the thread's free list, and an idle thread is "
             "handed only the\nspawner's oldest task ([spawn protocol](protocols/spawn.md)).\n\n";
    }
    if (run_.has("spawn_throughput")) {
      const std::string param = run_.param_of("spawn_throughput");
      const double tasks = std::stod(param.substr(param.find('=') + 1));
      md_ << "`spawn_throughput`: " << count_text(param.substr(param.find('=') + 1))
          << " tasks spawned from one thread into one group (a scope, a\n`tbb::task_group`, an "
             "OpenMP `single` region), then waited. A spawner whose deque holds\n4,096 tasks "
             "runs the next task at once, so weft's queue never grows past that; oneTBB and\n"
             "libgomp queue every task.\n\n";
      md_ << "Median times (and over weft's); weft spawns "
          << fmt("%.0f", tasks / run_.at("spawn_throughput", "weft", 1) * 1e3)
          << " M tasks/s at one thread.\n\n";
      row_table("spawn_throughput", {"weft", "tbb", "omp"}, "weft");
    }
    if (run_.has("spawn_loop")) {
      md_ << "`spawn_loop`: " << size_text(run_.param_of("spawn_loop"))
          << " tasks of 10,000 LCG steps each, spawned in a loop from one thread into\none group, "
             "then waited: the spawner pushes them faster than a sleeping thread wakes, so\nthe "
             "others get work only if the spawner keeps offering it while it runs the tasks "
             "itself\n([offers to idle threads](protocols/spawn.md#offers-to-idle-threads)).\n\n";
      row_table("spawn_loop", {"seq", "weft", "tbb", "omp"}, "seq");
    }
    if (run_.has("async_fib")) {
      md_ << "`async_fib(" << size_text(run_.param_of("async_fib"))
          << ")`: `weft::async` for one side and `future::get` at every level (weft)\nagainst "
             "the `weft::join` version (weft-join): where a join would run its sides as plain\n"
             "calls, `async` runs the callable at once into the future.\n\n";
      row_table("async_fib", {"seq", "weft", "weft-join"}, "weft-join");
    }
    if (run_.has("nested_nqueens")) {
      md_ << "`nested_nqueens(" << size_text(run_.param_of("nested_nqueens"))
          << ")`: n-queens with a parallel sum over the free columns at every level,\nno "
             "cutoff, as Rayon's users write it with `par_iter`: "
             "`iter(columns).map(search).sum()`\n(weft), `tbb::parallel_reduce` inside "
             "`tbb::parallel_reduce`, OpenMP `taskloop reduction`\ninside `taskloop "
             "reduction`. Median times (and over the sequential search's).\n\n";
      row_table("nested_nqueens", {"seq", "weft", "tbb", "omp"}, "seq");
    }
    if (run_.has("nested_grid")) {
      md_ << "`nested_grid(" << size_text(run_.param_of("nested_grid"))
          << ")`: the sum of a hash of every cell of a square grid, a parallel sum over\nthe "
             "rows whose items are parallel sums over one row, in the same three forms.\n\n";
      row_table("nested_grid", {"seq", "weft", "tbb", "omp"}, "seq");
    }
  }

  void fib() {
    const std::string param = run_.param_of("fib");
    const std::string n =
        param.empty() ? std::to_string(fib::default_n) : param.substr(param.find('=') + 1);
    md_ << "## fib(" << n << "), a join at every level (no cutoff)\n\n";
    if (run_.has("fib")) {
      const double joins = static_cast<double>(fib::num_joins(std::stoi(n)));
      md_ << count_text(fmt("%.0f", joins))
          << " joins. GCC turns the sequential recursion into a partly iterative loop, so "
             "the\nratio to it is the cost of a join over a call. ";
      md_ << "Median times (and over the sequential recursion's); at one thread a join costs "
          << per_fork("fib", "weft", joins) << " over a call (oneTBB "
          << per_fork("fib", "tbb", joins) << ", OpenMP " << per_fork("fib", "omp", joins)
          << ").\n\n";
      row_table("fib", {"seq", "weft", "tbb", "omp"}, "seq");
      ceiling("fib", "recursion", "of one thread");
      const double calls = run_.value("fib", "seq-calls", 1, "median_ns");
      const double join1 = run_.value("fib", "weft-calls", 1, "median_ns");
      const double join2 = run_.value("fib", "weft-calls", 2, "median_ns");
      if (!std::isnan(calls) && !std::isnan(join1))
        md_ << "With no level inlined into the next in either recursion (`[[gnu::noinline]]`: "
               "`seq-calls`\nand `weft-calls`, every level a call), the join's recursion takes "
            << fmt("%.2fx", join1 / calls) << " of the calls' time at one thread"
            << (std::isnan(join2) ? std::string() : " and " + fmt("%.2fx", join2 / calls) + " at two")
            << " (bars: 1.2x and 0.6x).\n\n";
    } else {
      md_ << "fib is not in this run.\n\n";
    }
    md_ << "### Instructions per join\n\n"
           "Wall-clock times on a shared machine move with the other jobs on it, so the fast "
           "path is\nmeasured in instructions: callgrind counts inside the recursion only, on "
           "one thread,\nfib(25), warm-up plus one timed run = 2 x 121,392 joins:\n\n"
           "```sh\n"
           "valgrind --tool=callgrind \\\n"
           "  '--toggle-collect=weft_bench::fib::(anonymous namespace)::fib_join(int) "
           "[clone .part.0]' \\\n"
           "  build/bench/benchmarks/weft_bench --workloads fib --threads 1 --n 25 --reps 1 "
           "--csv /dev/null\n"
           "# instructions per join = \"Collected\" / 242,784\n"
           "```\n\n"
           "The sequential fib at -O3 takes 19 instructions per internal node of the same tree. "
           "A join\nwith every join recorded on the deque takes 63.0 (44 of them the "
           "runtime's); a deferred\nshared part and one demand check, 52.0 "
           "([ADR 0005](decisions/0005-lean-join-fast-path.md)); unrecorded joins\nbeyond the "
           "private bound, 31.4 ([ADR 0006](decisions/0006-unrecorded-joins.md)); small "
           "temporaries by\nvalue, 29.6 ([ADR 0007](decisions/0007-callables-by-value.md)); "
           "the gate, one thread-local load, **21.0**,\nof which **2** are the runtime's "
           "([ADR 0008](decisions/0008-join-gate.md)). The inline part of a join is\none load "
           "through `%fs`, a test and a branch, and GCC inlines the recursion into itself\n"
           "several levels deep, as it does for the sequential fib.\n\n";
  }

  void latency() {
    md_ << "## Latency of a tiny join from `main`\n\n";
    int t = 0;
    for (const auto& r : run_.rows)
      if (r.workload == "latency") t = r.threads;
    if (t == 0) {
      md_ << "latency is not in this run.\n\n";
      return;
    }
    md_ << "`weft::join([]{return 1;}, []{return 2;})` from `main` on the global pool of " << t
        << " threads,\nmedian ns per call; \"awake\": back-to-back calls; \"asleep\": calls "
           "each after a 50 ms pause in\nwhich the workers fall asleep; seq: both lambdas "
           "inline (the clock's floor).\n\n| peer | awake | asleep |\n|---|---:|---:|\n";
    for (const char* p : {"seq", "weft", "tbb", "omp"})
      if (const double aw = run_.value("latency", p, t, "median_ns", "awake"); !std::isnan(aw))
        md_ << "| " << p << " | " << t_ms(aw) << " | "
            << t_ms(run_.value("latency", p, t, "median_ns", "asleep")) << " |\n";
    md_ << "\nAn awake call runs through the pool's caller seat; after idle, the futex wake "
           "of a sleeping\nworker on the caller's path is most of the time, which is why "
           "[the probe's budget](decisions/0010-probe-budget-by-fork-cost.md)\nkeeps calls of "
           "a few microseconds inline then.\n\n";
  }

  void idle() {
    md_ << "## Idle CPU after a burst\n\n";
    int t = 0;
    for (const auto& r : run_.rows)
      if (r.workload == "idle") t = r.threads;
    if (t == 0) {
      md_ << "idle is not in this run.\n\n";
      return;
    }
    md_ << "Process CPU time (user + sys, `getrusage`) during a 200 ms sleep of `main` right "
           "after a\nparallel fib(25) burst on "
        << t
        << " threads (seq: no burst, the floor; weft-global: the global pool).\n\n"
           "| peer | CPU ms in 200 ms, median | max |\n|---|---:|---:|\n";
    for (const char* p : {"seq", "weft", "weft-global", "tbb", "omp"})
      if (const double v = run_.value("idle", p, t, "cpu_ms_median"); !std::isnan(v))
        md_ << "| " << p << " | " << fmt("%.3f", v) << " | "
            << fmt("%.3f", run_.value("idle", p, t, "cpu_ms_max")) << " |\n";
    md_ << "\nIdle workers search for 32 yield rounds, announce themselves sleepy, then block "
           "in the\nkernel ([sleep protocol](protocols/sleep.md)); libgomp's threads spin "
           "unless `OMP_WAIT_POLICY`\nsays otherwise.\n\n";
  }

  void scaling() {
    if (ref_ == nullptr || ref_->threads.empty()) {
      md_ << "## Scaling\n\nNo stored scaling run (`data/scaling-*.csv`).\n\n";
      return;
    }
    const run_data& r = *ref_;
    const int lo = r.threads.front(), hi = r.threads.back();
    md_ << "## Scaling from " << lo << " to " << hi << " threads\n\n"
        << "A stored run, [`data/" << r.csv_name << "`](data/" << r.csv_name
        << "): " << machine_of(r.meta) << ";\nweft at `" << r.meta.get("commit", "?") << "`.\n\n";
    for (const auto& note : r.meta.all("machine_note")) md_ << note << '\n';
    if (!r.meta.all("machine_note").empty()) md_ << '\n';
    md_ << "```sh\n";
    for (const auto& c : r.meta.all("command")) md_ << c << '\n';
    md_ << "```\n\nweft's median at each thread count, its speed-up from " << lo << " to " << hi
        << " threads, and its time over the\nfastest other peer (sequential included) at each "
           "count:\n\n| workload |";
    for (const int t : r.threads) md_ << ' ' << t << "t |";
    md_ << ' ' << lo << "→" << hi << " | weft / fastest other @";
    for (std::size_t i = 0; i < r.threads.size(); ++i) md_ << (i ? ", " : "") << r.threads[i];
    md_ << "t | fastest other @" << hi << "t |\n|---|";
    for (std::size_t i = 0; i < r.threads.size() + 3; ++i) md_ << "---|";
    md_ << '\n';
    for (const auto& g : r.groups) {
      if (std::isnan(r.at(g, "weft", lo))) continue;
      md_ << "| " << g << " |";
      for (const int t : r.threads) md_ << ' ' << t_ms(r.at(g, "weft", t)) << " |";
      md_ << ' ' << ratio_text(r.at(g, "weft", lo) / r.at(g, "weft", hi)) << " | ";
      std::string best_hi;
      for (std::size_t i = 0; i < r.threads.size(); ++i) {
        const int t = r.threads[i];
        double best = std::nan("");
        std::string who;
        for (const auto& [key, ns] : r.median)
          if (std::get<0>(key) == g && std::get<2>(key) == t &&
              std::get<1>(key).rfind("weft", 0) != 0 && std::get<1>(key) != "seq-copies" &&
              std::get<1>(key) != "alloc" && !(ns >= best))
            best = ns, who = std::get<1>(key);
        md_ << (i ? ", " : "") << ratio_text(r.at(g, "weft", t) / best);
        if (t == hi) best_hi = who.empty() ? "-" : who + " " + t_ms(best);
      }
      md_ << " | " << best_hi << " |\n";
    }
    md_ << '\n';
    const auto lat = [&](const char* p, const char* which) {
      for (const auto& row : r.rows)
        if (row.workload == "latency" && row.peer == p && row.metric == "median_ns" &&
            row.param == which)
          return t_ms(row.value);
      return std::string("n/a");
    };
    const auto cpu = [&](const char* p) {
      for (const auto& row : r.rows)
        if (row.workload == "idle" && row.peer == p && row.metric == "cpu_ms_median")
          return fmt("%.2f ms", row.value);
      return std::string("n/a");
    };
    if (r.has("latency"))
      md_ << "Latency of one tiny `join` from `main` on the " << hi << "-thread global pool: "
          << "awake " << lat("weft", "awake") << " (oneTBB " << lat("tbb", "awake") << ", OpenMP "
          << lat("omp", "awake") << "), after 50 ms asleep " << lat("weft", "asleep") << " (oneTBB "
          << lat("tbb", "asleep") << ", OpenMP " << lat("omp", "asleep") << ").\n";
    if (r.has("idle"))
      md_ << "Idle CPU in the 200 ms after a burst: weft " << cpu("weft") << " (global pool "
          << cpu("weft-global") << "), oneTBB " << cpu("tbb") << ", OpenMP " << cpu("omp") << ".\n";
    md_ << '\n';
    for (const auto& note : r.meta.all("note")) md_ << note << '\n';
    if (!r.meta.all("note").empty()) md_ << '\n';
    md_ << "![Speed-up over the sequential code against threads, " << hi << " threads at most](img/"
        << ref_scaling_ << ")\n\n![Median time / the fastest "
        << "peer's, " << hi << " threads](img/" << ref_bars_ << ")\n\n";
  }

  void plots() {
    md_ << "## Plots\n\n"
           "`weft_bench` draws its own charts as plain SVG (`benchmarks/plot.cpp`, no plotting "
           "library)\ninto `results/` or `--out DIR`: `bars_<T>t.svg`, each peer's median over "
           "the fastest peer's\nat T threads, per workload, on a linear scale with each "
           "bar's value written at its end\n(1x: the fastest; bars past 3x are cut and "
           "marked), and `scaling.svg`, each parallel\npeer's speed-up over the fastest "
           "sequential code against the thread count. Latency and\nidle stay in the tables. "
           "`--replot CSV` redraws a stored run.\n\n";
    for (const int t : run_.threads)
      md_ << "![Median time / the fastest peer's, " << t << " thread" << (t == 1 ? "" : "s")
          << "](img/bars_" << t << "t.svg)\n\n";
    md_ << "![Speed-up over the sequential code against threads](img/scaling.svg)\n";
  }
};

// The workloads charted from a run: all but latency and idle, in the order the rows come.
std::vector<std::string> charted(const run_data& d) {
  std::vector<std::string> w;
  for (const auto& r : d.rows)
    if (r.workload != "latency" && r.workload != "idle" &&
        std::find(w.begin(), w.end(), r.workload) == w.end())
      w.push_back(r.workload);
  return w;
}

bool put_charts(const std::string& dir, const run_data& d, const plot_names& names,
                std::vector<std::string>& written) {
  const auto files = write_plots(dir, d.rows, charted(d), d.threads, plot_meta_of(d.meta), names);
  written.insert(written.end(), files.begin(), files.end());
  return !files.empty();
}

}  // namespace

bool write_report(const std::string& csv_path, const std::string& dir,
                  std::vector<std::string>& written) {
  run_data run;
  if (!load(csv_path, run)) return false;
  // The stored scaling run: the newest data/scaling-*.csv beside the run's CSV.
  std::vector<fs::path> stored;
  std::error_code ec;
  const fs::path data_dir = fs::path(csv_path).parent_path();
  for (const auto& e : fs::directory_iterator(data_dir.empty() ? "." : data_dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("scaling-", 0) == 0 && e.path().extension() == ".csv")
      stored.push_back(e.path());
  }
  std::sort(stored.begin(), stored.end());
  run_data ref;
  const bool have_ref = !stored.empty() && load(stored.back().string(), ref);
  const std::string img = (fs::path(dir) / "img").string();
  plot_names ref_names;
  if (have_ref && !ref.threads.empty()) {
    const std::string hi = std::to_string(ref.threads.back());
    ref_names.scaling = "scaling_" + hi + "t.svg";
    // bars_<T>t.svg of the stored run, unless this run has that thread count too.
    const bool clash =
        std::find(run.threads.begin(), run.threads.end(), ref.threads.back()) != run.threads.end();
    ref_names.bars = clash ? "stored_bars_" : "bars_";
  }
  if (!put_charts(img, run, {}, written)) return false;
  if (have_ref) {
    // The stored run's scaling chart, and its bar chart at its largest thread count only.
    const plot_meta m = plot_meta_of(ref.meta);
    const auto bars =
        write_plots(img, ref.rows, charted(ref), {ref.threads.back()}, m, {ref_names.bars, ""});
    const auto lines =
        write_plots(img, ref.rows, charted(ref), ref.threads, m, {"", ref_names.scaling});
    written.insert(written.end(), bars.begin(), bars.end());
    written.insert(written.end(), lines.begin(), lines.end());
  }
  const std::string text =
      page(run, have_ref ? &ref : nullptr, ref_names.scaling,
           ref_names.bars + (have_ref ? std::to_string(ref.threads.back()) : "") + "t.svg")
          .text();
  const fs::path md = fs::path(dir) / "benchmarks.md";
  std::ofstream out(md, std::ios::binary);
  out << text;
  if (!out) {
    std::fprintf(stderr, "weft_bench: cannot write %s\n", md.string().c_str());
    return false;
  }
  written.push_back(md.string());
  const long lines = std::count(text.begin(), text.end(), '\n');
  if (lines > page_max_lines)
    std::fprintf(stderr, "weft_bench: %s has %ld lines, over the %d of its budget\n",
                 md.string().c_str(), lines, page_max_lines);
  return true;
}

}  // namespace weft_bench
