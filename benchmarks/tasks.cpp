// SPDX-License-Identifier: MIT
// The task-parallel tables: nqueens (a spawn per placement), spawn_throughput and spawn_loop
// (spawns from one thread: empty tasks, tasks that compute), async_fib, and the nested reductions (nested_nqueens, nested_grid). Each round runs every peer in turn; a cell is the median of all its samples.
#include "tasks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <vector>

#include "common.hpp"
#include "async_fib/config.hpp"
#include "nested/config.hpp"
#include "nqueens/config.hpp"
#include "spawn_throughput/config.hpp"

namespace weft_bench {
namespace {

// Samples of every built peer at `threads`, `rounds` rounds of `reps` calls each, as the
// pipeline tables take theirs: peers in the order of peer_of_turn, each turn once the
// process is quiet (start_turn). `run(peer, threads)` returns one turn's samples.
template <class Peers, class Run>
std::vector<std::vector<double>> sample_rounds(const char* workload, const Peers& peers,
                                               int threads, int rounds, Run&& run) {
  const std::size_t count = std::size(peers);
  std::vector<std::vector<double>> ns(count);
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t i = peer_of_turn(k, static_cast<std::size_t>(r), count);
      if (peers[i].run == nullptr) continue;
      start_turn(workload, peers[i].name, threads);
      const std::vector<double> turn = run(peers[i], threads);
      ns[i].insert(ns[i].end(), turn.begin(), turn.end());
    }
  }
  progress_done();
  return ns;
}

double median_or_nan(const std::vector<double>& v) { return v.empty() ? std::nan("") : median(v); }

}  // namespace

void measure_ceiling(const std::string& workload, const std::string& param, int n, int reps,
                     copies_fn* copies, const char* against, csv_sink& csv) {
  progress_note(workload, "1 and 2 copies of seq on std::threads");
  wait_until_quiet();
  const double one = median(copies(n, 1, reps));
  wait_until_quiet();
  const double two = median(copies(n, 2, reps));
  progress_done();
  csv.add(workload, "seq-copies", 1, param, "median_ns", one, "ns");
  csv.add(workload, "seq-copies", 2, param, "median_ns", two, "ns");
  std::printf(
      "  ceiling: 2 copies of seq on 2 std::threads take %.2fx one copy alone, so no runtime "
      "can beat ~%.2fx %s here\n",
      two / one, two / one / 2, against);
}

namespace {

void run_nqueens(const options& o, csv_sink& csv) {
  namespace q = nqueens;
  const int n = static_cast<int>(o.size_of("nqueens", q::default_n, q::quick_n));
  if (n < 1 || n >= static_cast<int>(std::size(q::solutions))) {
    std::fprintf(stderr, "weft_bench: nqueens size %d is not in 1..14\n", n);
    std::exit(2);
  }
  const double nodes = static_cast<double>(q::count_nodes(n, q::board{0, 0, 0, 0}));
  const std::string param = "n=" + std::to_string(n);
  std::printf(
      "\n== nqueens(%d): one task per placement at every level, %.0f tasks; median of %d "
      "rounds x %d runs ==\n%-7s %-9s %10s %10s %8s %8s\n",
      n, nodes, o.rounds, o.reps, "threads", "peer", "time ms", "ns/task", "vs seq", "vs weft");
  std::map<int, double> weft_at, tg_at;
  double seq_at_1 = std::nan("");
  for (const int t : o.threads) {
    const auto ns = sample_rounds("nqueens", q::peers, t, o.rounds,
                                  [&](const auto& p, int threads) { return p.run(n, threads, o.reps); });
    const double seq = median_or_nan(ns[0]), weft = median_or_nan(ns[1]);
    if (t == 1) seq_at_1 = seq;
    weft_at[t] = weft;
    tg_at[t] = median_or_nan(ns[2]);
    for (std::size_t i = 0; i < ns.size(); ++i) {
      const double med = median_or_nan(ns[i]);
      const double per_task = i == 0 ? std::nan("") : cost_per_fork(med, seq, nodes, t);
      std::printf("%-7d %-9s %10s %10s %8s %8s\n", t, q::peers[i].name,
                  cell(med / 1e6, "%.2f").c_str(),
                  std::isnan(per_task) ? "-" : cell(per_task, "%.1f").c_str(),
                  cell(med / seq, "%.2fx").c_str(), cell(med / weft, "%.2fx").c_str());
      if (q::peers[i].run == nullptr) continue;
      csv.add("nqueens", q::peers[i].name, t, param, "median_ns", med, "ns");
    }
    std::fflush(stdout);
  }
  bars_heading("bars (weft: scope; weft-tg: task_group):");
  for (const auto* at : {&weft_at, &tg_at}) {
    const std::string name = std::string(at == &weft_at ? "weft" : "weft-tg") + " nqueens(" +
                             std::to_string(n) + ")";
    if (at->count(1)) bar(name + " @1 thread / seq", at->at(1) / seq_at_1, 2.0, "x");
    if (at->count(2)) bar(name + " @2 threads / seq", at->at(2) / seq_at_1, 1.0, "x");
    if (at->count(1) && at->count(2))
      bar(name + " @2 threads / @1", at->at(2) / at->at(1), 1.0, "x");
  }
  if (weft_at.count(2))
    measure_ceiling("nqueens", param, n, o.reps, &q::run_seq_copies, "of seq @2", csv);
}

void run_spawn_throughput(const options& o, csv_sink& csv) {
  namespace s = spawn_throughput;
  const long tasks = static_cast<long>(o.size_of("spawn_throughput", s::default_tasks, s::quick_tasks));
  const std::string param = "tasks=" + std::to_string(tasks);
  std::printf(
      "\n== spawn_throughput: %ld tasks spawned from one thread into one group, then waited; "
      "median of %d rounds x %d runs ==\n%-7s %-5s %10s %12s %8s\n",
      tasks, o.rounds, o.reps, "threads", "peer", "time ms", "M tasks/s", "vs weft");
  std::map<int, double> weft_vs_tbb, weft_at;
  for (const int t : o.threads) {
    const auto ns = sample_rounds("spawn_throughput", s::peers, t, o.rounds,
                                  [&](const auto& p, int threads) { return p.run(tasks, threads, o.reps); });
    const double weft = median_or_nan(ns[0]);
    weft_at[t] = weft;
    for (std::size_t i = 0; i < ns.size(); ++i) {
      const double med = median_or_nan(ns[i]);
      std::printf("%-7d %-5s %10s %12s %8s\n", t, s::peers[i].name, cell(med / 1e6, "%.2f").c_str(),
                  cell(static_cast<double>(tasks) / med * 1e3, "%.1f").c_str(),
                  cell(med / weft, "%.2fx").c_str());
      if (s::peers[i].run == nullptr) continue;
      csv.add("spawn_throughput", s::peers[i].name, t, param, "median_ns", med, "ns");
    }
    weft_vs_tbb[t] = weft / median_or_nan(ns[1]);
    std::fflush(stdout);
  }
  bars_heading("bars (weft's time over oneTBB's: <= 0.333 is 3x its throughput):");
  for (const auto& [t, ratio] : weft_vs_tbb)
    bar("weft spawn_throughput @" + std::to_string(t) + " / tbb", ratio, 0.333, "x");
  if (weft_at.count(1) && weft_at.count(2))
    bar("weft spawn_throughput @2 threads / @1", weft_at[2] / weft_at[1], 1.0, "x");
}

void run_async_fib(const options& o, csv_sink& csv) {
  namespace a = async_fib;
  const int n = static_cast<int>(o.size_of("async_fib", a::default_n, a::quick_n));
  const std::string param = "n=" + std::to_string(n);
  std::printf(
      "\n== async_fib(%d): weft::async + get at every level, against weft::join; median of %d "
      "rounds x %d runs ==\n%-7s %-9s %10s %8s %10s\n",
      n, o.rounds, o.reps, "threads", "peer", "time ms", "vs seq", "vs join");
  std::map<int, double> ratio, weft_at;
  for (const int t : o.threads) {
    const auto ns = sample_rounds("async_fib", a::peers, t, o.rounds,
                                  [&](const auto& p, int threads) { return p.run(n, threads, o.reps); });
    const double seq = median_or_nan(ns[0]), join = median_or_nan(ns[2]);
    for (std::size_t i = 0; i < ns.size(); ++i) {
      const double med = median_or_nan(ns[i]);
      std::printf("%-7d %-9s %10s %8s %10s\n", t, a::peers[i].name, cell(med / 1e6, "%.3f").c_str(),
                  cell(med / seq, "%.2fx").c_str(), cell(med / join, "%.2fx").c_str());
      csv.add("async_fib", a::peers[i].name, t, param, "median_ns", med, "ns");
    }
    ratio[t] = median_or_nan(ns[1]) / join;
    weft_at[t] = median_or_nan(ns[1]);
    std::fflush(stdout);
  }
  bars_heading();
  for (const auto& [t, r] : ratio)
    bar("weft async_fib(" + std::to_string(n) + ") @" + std::to_string(t) + " / join", r, 3.0, "x");
  if (weft_at.count(1) && weft_at.count(2))
    bar("weft async_fib(" + std::to_string(n) + ") @2 threads / @1", weft_at[2] / weft_at[1], 1.0,
        "x");
}

// A table of peers seq, weft, tbb, ... (time, over the sequential run, over weft's) and its
// bars: weft at 2 threads over its own 1-thread time and, where given, over oneTBB's at 2.
template <class Peers, class Run>
void run_scaling_table(const char* workload, const std::string& param, const std::string& title,
                const Peers& peers, const options& o, csv_sink& csv, double vs_tbb_limit,
                Run&& run) {
  std::printf("\n== %s: %s; median of %d rounds x %d runs ==\n%-7s %-5s %10s %8s %8s\n",
              workload, title.c_str(), o.rounds, o.reps, "threads", "peer", "time ms", "vs seq",
              "vs weft");
  std::map<int, double> weft_at, tbb_at;
  for (const int t : o.threads) {
    const auto ns = sample_rounds(workload, peers, t, o.rounds, run);
    const double seq = median_or_nan(ns[0]), weft = median_or_nan(ns[1]);
    weft_at[t] = weft;
    tbb_at[t] = median_or_nan(ns[2]);
    for (std::size_t i = 0; i < ns.size(); ++i) {
      const double med = median_or_nan(ns[i]);
      std::printf("%-7d %-5s %10s %8s %8s\n", t, peers[i].name, cell(med / 1e6, "%.3f").c_str(),
                  cell(med / seq, "%.2fx").c_str(), cell(med / weft, "%.2fx").c_str());
      if (peers[i].run == nullptr) continue;
      csv.add(workload, peers[i].name, t, param, "median_ns", med, "ns");
    }
    std::fflush(stdout);
  }
  bars_heading();
  if (weft_at.count(1) && weft_at.count(2))
    bar(std::string("weft ") + workload + " @2 threads / @1", weft_at[2] / weft_at[1], 0.55, "x");
  if (vs_tbb_limit > 0 && weft_at.count(2))
    bar(std::string("weft ") + workload + " @2 threads / tbb", weft_at[2] / tbb_at[2],
        vs_tbb_limit, "x");
}

// spawn_throughput's loop with tasks that compute: does the spawner share them?
void run_spawn_loop(const options& o, csv_sink& csv) {
  namespace s = spawn_throughput;
  const long tasks = static_cast<long>(o.size_of("spawn_loop", s::loop_tasks, s::quick_loop_tasks));
  run_scaling_table("spawn_loop", "tasks=" + std::to_string(tasks),
                    std::to_string(tasks) + " tasks of " + std::to_string(s::loop_steps) +
                        " LCG steps each spawned from one thread into one group, then waited",
                    s::loop_peers, o, csv, 1.0, [&](const auto& p, int threads) {
                      return p.run(tasks, s::loop_steps, threads, o.reps);
                    });
}

void run_nested_nqueens(const options& o, csv_sink& csv) {
  namespace q = nested;
  const int n = static_cast<int>(o.size_of("nested_nqueens", q::default_n, q::quick_n));
  if (n < 1 || n >= static_cast<int>(std::size(nqueens::solutions))) {
    std::fprintf(stderr, "weft_bench: nested_nqueens size %d is not in 1..14\n", n);
    std::exit(2);
  }
  run_scaling_table("nested_nqueens", "n=" + std::to_string(n),
             "n-queens(" + std::to_string(n) +
                 "), a parallel sum over the free columns at every level, no cutoff",
             q::queens_peers, o, csv, 0.8,
             [&](const auto& p, int threads) { return p.run(n, threads, o.reps); });
}

void run_nested_grid(const options& o, csv_sink& csv) {
  namespace q = nested;
  const std::size_t side = o.size_of("nested_grid", q::default_side, q::quick_side);
  run_scaling_table("nested_grid", "side=" + std::to_string(side),
             std::to_string(side) + " x " + std::to_string(side) +
                 " grid, a parallel sum over the rows of parallel sums over a row",
             q::grid_peers, o, csv, 0,
             [&](const auto& p, int threads) { return p.run(side, threads, o.reps); });
}

}  // namespace

void run_task_workload(const std::string& workload, const options& o, csv_sink& csv) {
  if (workload == "nqueens") run_nqueens(o, csv);
  if (workload == "spawn_throughput") run_spawn_throughput(o, csv);
  if (workload == "spawn_loop") run_spawn_loop(o, csv);
  if (workload == "async_fib") run_async_fib(o, csv);
  if (workload == "nested_nqueens") run_nested_nqueens(o, csv);
  if (workload == "nested_grid") run_nested_grid(o, csv);
}

int task_steps(const std::string& workload, const options& o) {
  const int per_peer = static_cast<int>(o.threads.size()) * o.rounds;
  if (workload == "nqueens") return built(nqueens::peers) * per_peer;
  if (workload == "async_fib") return built(async_fib::peers) * per_peer;
  if (workload == "nested_nqueens") return built(nested::queens_peers) * per_peer;
  if (workload == "nested_grid") return built(nested::grid_peers) * per_peer;
  if (workload == "spawn_loop") return built(spawn_throughput::loop_peers) * per_peer;
  return built(spawn_throughput::peers) * per_peer;
}

}  // namespace weft_bench
