// SPDX-License-Identifier: MIT
// The table every iterator and algorithm workload prints: each peer at each thread count, its
// result checked against the sequential peer's, with ratios to the reference loop and to weft.
// Below it, such a workload as data (table_workload) and the one function that runs it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "options.hpp"
#include "report.hpp"

namespace weft_bench {

// How one workload's table reads.
struct table_spec {
  const char* workload;  // CSV name
  std::string param;     // CSV param column, e.g. "n=50000000"
  const char* unit;      // unit of the time column: "ms", "us", "ns/call"
  double unit_ns;        // ns in one unit
  const char* base;      // the peer of the "vs" column (one of the seq peers)
};

// The medians of one table (in ns), for the bars.
struct table_result {
  std::map<std::pair<std::string, int>, double> median_ns;
  bool ok = true;  // every peer computed the sequential peer's result

  double at(const std::string& peer, int threads) const {
    const auto it = median_ns.find({peer, threads});
    return it == median_ns.end() ? std::nan("") : it->second;
  }
  // The best median at `threads` among the peers that are not weft (seq rows included).
  double best_other(int threads) const {
    double best = std::nan("");
    for (const auto& [key, ns] : median_ns)
      if (key.second == threads && key.first.rfind("weft", 0) != 0 && !(ns >= best)) best = ns;
    return best;
  }
};

// Prints a mismatch where nobody can miss it; the runner's exit status reports it too.
inline void mismatch(const char* workload, const char* peer, int threads, const std::string& why) {
  for (FILE* out : {stdout, stderr})
    std::fprintf(out, "!! MISMATCH in %s: peer %s at %d thread(s) %s\n", workload, peer, threads,
                 why.c_str());
}

// The timed calls of each round when `reps` calls are spread over `rounds` rounds: the
// shares differ by at most one, and there are never more rounds than calls.
inline std::vector<int> round_shares(int reps, int rounds) {
  const int r = std::max(1, std::min(rounds, reps));
  std::vector<int> shares(static_cast<std::size_t>(r), reps / r);
  for (int k = 0; k < reps % r; ++k) ++shares[static_cast<std::size_t>(k)];
  return shares;
}

// The line under a table's heading that says how its calls were spread over rounds.
inline void print_rounds(int reps, int rounds) {
  const std::vector<int> shares = round_shares(reps, rounds);
  if (shares.size() == 1)
    std::printf("   each peer's calls back to back, after one untimed warm-up\n");
  else
    std::printf("   the peers take turns: %zu rounds of %d-%d timed calls, each round after "
                "one untimed warm-up\n",
                shares.size(), shares.back(), shares.front());
}

// `peers` is a workload's array of peer<run_fn>; each runs at each thread count, the seq*
// peers too (they use one thread whatever the count), so that each block's ratios come from
// measurements taken close together on a machine whose load drifts. For the same reason the
// `reps` timed calls of a cell are spread over `rounds` rounds, and each round runs every
// peer in turn (each call of `run` has its own warm-up): a shift of the machine's speed
// that lasts seconds (a shared machine's memory bandwidth moves by a third between runs) then lands
// on every peer alike instead of on whichever peer ran during it. A cell's figures are
// over the samples of all its rounds. The first peer (seq) opens every round and the others
// follow it in an order rotated by one each round (peer_of_turn): on the reference machine the turn right
// after the sequential one runs its memory-bound calls a few percent slower
// (docs/decisions/0009-benchmark-method.md), and a fixed order gives that slot to one peer
// every time. Each turn
// starts once the process is idle (wait_until_quiet): no runtime's spinning threads from
// the turn before take a vCPU from it. `run(peer, threads, calls)` returns a timed<R>;
// `differs(got, want)` returns "" when got matches the first peer's first result, else a
// description of the difference.
template <class Peers, class Run, class Differs>
table_result run_table(const table_spec& s, const Peers& peers,
                       const std::vector<int>& threads, int reps, int rounds, Run&& run,
                       Differs&& differs, csv_sink& csv) {
  table_result res;
  print_rounds(reps, rounds);
  const std::string vs_base = std::string("vs ") + s.base;
  std::printf("%-7s %-12s %12s %9s %8s\n", "threads", "peer", s.unit, vs_base.c_str(), "vs weft");
  std::fflush(stdout);
  using result_t = decltype(run(peers[0], 1, 1).result);
  result_t want{};
  bool have_want = false;
  double quiet_ms = 0, quiet_max_ms = 0;
  int turns = 0;
  const auto measure = [&](const auto& p, int t, int calls, std::vector<double>& samples) {
    const double waited = start_turn(s.workload, p.name, t);
    quiet_ms += waited;
    quiet_max_ms = std::max(quiet_max_ms, waited);
    ++turns;
    auto out = run(p, t, calls);
    if (!have_want) {
      want = std::move(out.result);
      have_want = true;
    } else if (const std::string why = differs(out.result, want); !why.empty()) {
      progress_done();
      mismatch(s.workload, p.name, t, why);
      res.ok = false;
    }
    samples.insert(samples.end(), out.ns.begin(), out.ns.end());
  };
  const std::vector<int> shares = round_shares(reps, rounds);
  for (const int t : threads) {
    std::vector<std::vector<double>> samples(std::size(peers));
    for (std::size_t round = 0; round < shares.size(); ++round)
      for (std::size_t k = 0; k < std::size(peers); ++k) {
        const std::size_t i = peer_of_turn(k, round, std::size(peers));
        if (peers[i].run != nullptr) measure(peers[i], t, shares[round], samples[i]);
      }
    for (std::size_t i = 0; i < std::size(peers); ++i) {
      const std::vector<double>& ns = samples[i];
      if (ns.empty()) continue;
      const char* name = peers[i].name;
      csv.add(s.workload, name, t, s.param, "min_ns", *std::min_element(ns.begin(), ns.end()), "ns");
      csv.add(s.workload, name, t, s.param, "max_ns", max_of(ns), "ns");
      csv.add(s.workload, name, t, s.param, "median_ns", median(ns), "ns");
      res.median_ns[{name, t}] = median(ns);
    }
    progress_done();
    const double base = res.at(s.base, t), weft = res.at("weft", t);
    for (const auto& p : peers) {
      const double ns = res.at(p.name, t);
      std::printf("%-7d %-12s %12s %9s %8s\n", t, p.name, cell(ns / s.unit_ns, "%.3f").c_str(),
                  cell(ns / base, "%.2fx").c_str(), cell(ns / weft, "%.2fx").c_str());
    }
    std::fflush(stdout);
  }
  if (turns > 0)
    std::printf("  each turn began once the process's threads were idle: waited %.1f ms a turn on "
                "average, %.1f at most\n",
                quiet_ms / turns, quiet_max_ms);
  return res;
}

// The bar every workload shares: weft no slower than the fastest other peer (seq included).
inline void bar_vs_best_peer(const char* workload, const table_result& r,
                             const std::vector<int>& threads) {
  for (const int t : threads)
    bar(std::string("weft ") + workload + " @" + std::to_string(t) + "t / best other peer",
        r.at("weft", t) / r.best_other(t), 1.0, "x");
}

// weft at `threads` against the sequential peer at the same count.
inline void bar_vs_seq(const char* workload, const table_result& r, int threads, double limit) {
  bar(std::string("weft ") + workload + " @" + std::to_string(threads) + "t / seq",
      r.at("weft", threads) / r.at("seq", threads), limit, "x");
}

// weft's own wall time at 2 threads, for the workloads with a bar in seconds.
inline void bar_seconds_at_2t(const char* workload, const table_result& r, double limit) {
  bar(std::string("weft ") + workload + " @2t (s)", r.at("weft", 2) / 1e9, limit, "s");
}

// The heading of a table timed over --reps runs (time_calls, time_sorts).
inline std::string median_heading(const std::string& what, int reps) {
  return "\n== " + what + "; median of " + std::to_string(reps) +
         " or more runs (a turn's calls repeat until they total " +
         std::to_string(min_turn_ns / 1'000'000) + " ms) ==\n";
}

// Result checks: integers and positions exactly, floating-point sums to a relative 1e-9
// (every peer associates the sum differently).
template <class T>
std::string differs_exactly(const T& got, const T& want) {
  if (got == want) return "";
  return "computed " + std::to_string(got) + ", expected " + std::to_string(want);
}

inline std::string differs_fp(double got, double want) {
  if (std::fabs(got - want) <= 1e-9 * std::fabs(want)) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "computed %.17g, expected %.17g", got, want);
  return buf;
}

// What the callbacks of a table_workload see of its run.
struct table_run {
  const char* workload;
  std::size_t n;  // the input size
  const options& o;
  const table_result& r;
  csv_sink& csv;
};

// The typed half of a table workload, from peers_on: its peers, their input and the check of
// their results.
struct peer_runner {
  // Makes the input of size n and prints the table of every peer on it.
  table_result (*run)(const table_spec& s, std::size_t n, int reps, int rounds,
                      const std::vector<int>& threads, csv_sink& csv);
  int built;  // the peers whose runtime was built
};

template <const auto& peers, auto make_input, auto differs>
table_result run_peers_on(const table_spec& s, std::size_t n, int reps, int rounds,
                          const std::vector<int>& threads, csv_sink& csv) {
  const auto in = make_input(n);
  return run_table(
      s, peers, threads, reps, rounds,
      [&](const auto& p, int t, int calls) { return p.run(in, t, calls); }, differs, csv);
}

// Every one of `peers` is called as run(make_input(n), threads, reps); `differs` checks each
// result against the first peer's (differs_fp, differs_exactly<T>, or the workload's own).
template <const auto& peers, auto make_input, auto differs>
constexpr peer_runner peers_on() {
  return {&run_peers_on<peers, make_input, differs>, built(peers)};
}

// A workload that prints one peer table: what sets it apart from the others. run_workload does
// the rest: the size, the heading, the table, `notes`, then (with --check) "bars:" and its bars
// in the order of the fields below, bar_vs_best_peer after `bars`. A bar limit of 0 leaves
// that bar out.
struct table_workload {
  const char* name;                // in --workloads and --size, and the CSV's workload column
  std::size_t default_n, quick_n;  // the input size without and with --quick
  peer_runner peers;
  std::string (*heading)(std::size_t n, int reps);  // the "== ... ==" text above the table
  const char* unit = "ms";                          // of the time column
  double unit_ns = 1e6;                             // ns in one unit
  const char* base = "seq";                         // the peer of the "vs" column
  int default_calls = 0, quick_calls = 0;  // calls per sample in place of --reps; 0: --reps
  void (*notes)(const table_run&) = nullptr;  // lines between the table and its bars
  double seq_1t = 0;                          // weft @1t / seq
  double seq_2t = 0;                          // weft @2t / seq
  void (*bars)(const table_run&) = nullptr;   // the workload's own
  double seconds_2t = 0;  // weft @2t in seconds, at the default size only (the limit's size)
};

// The timed calls of each cell of `w`: --reps, or the workload's own count of calls.
inline int cell_calls(const table_workload& w, const options& o) {
  return w.default_calls == 0 ? o.reps : o.quick ? w.quick_calls : w.default_calls;
}

// Prints the table and bars of `w`; false if some peer computed a result different from the
// sequential one.
inline bool run_workload(const table_workload& w, const options& o, csv_sink& csv) {
  const std::size_t n = o.size_of(w.name, w.default_n, w.quick_n);
  const int reps = cell_calls(w, o);
  std::fputs(w.heading(n, reps).c_str(), stdout);
  const table_result r = w.peers.run({w.name, "n=" + std::to_string(n), w.unit, w.unit_ns, w.base},
                                     n, reps, o.rounds, o.threads, csv);
  const table_run run{w.name, n, o, r, csv};
  if (w.notes != nullptr) w.notes(run);
  bars_heading();
  if (w.seq_1t > 0) bar_vs_seq(w.name, r, 1, w.seq_1t);
  if (w.seq_2t > 0) bar_vs_seq(w.name, r, 2, w.seq_2t);
  if (w.bars != nullptr) w.bars(run);
  bar_vs_best_peer(w.name, r, o.threads);
  if (w.seconds_2t > 0 && n == w.default_n) bar_seconds_at_2t(w.name, r, w.seconds_2t);
  return r.ok;
}

// run_workload of the entry `name` of `workloads`; true if there is none.
inline bool run_workload(std::span<const table_workload> workloads, const std::string& name,
                         const options& o, csv_sink& csv) {
  for (const table_workload& w : workloads)
    if (name == w.name) return run_workload(w, o, csv);
  return true;
}

// The progress steps the entry `name` of `workloads` takes: one per built peer and thread
// count; 0 if there is no such entry.
inline int workload_steps(std::span<const table_workload> workloads, const std::string& name,
                          const options& o) {
  for (const table_workload& w : workloads)
    if (name == w.name)
      return w.peers.built * static_cast<int>(o.threads.size()) *
             static_cast<int>(round_shares(cell_calls(w, o), o.rounds).size());
  return 0;
}

}  // namespace weft_bench
