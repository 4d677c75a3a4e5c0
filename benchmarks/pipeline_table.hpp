// SPDX-License-Identifier: MIT
// The table every iterator workload prints: each peer at each thread count, its result checked
// against the sequential peer's, with ratios to the reference loop and to weft.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
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

// `peers` is a workload's array of peer<run_fn>; each runs at each thread count, the seq*
// peers too (they use one thread whatever the count), so that each block's ratios come from
// measurements taken close together on a machine whose load drifts. `run(peer, threads)`
// returns a timed<R>; `differs(got, want)` returns "" when got matches the first peer's
// first result, else a description of the difference.
template <class Peers, class Run, class Differs>
table_result run_table(const table_spec& s, const Peers& peers,
                       const std::vector<int>& threads, Run&& run, Differs&& differs,
                       csv_sink& csv) {
  table_result res;
  const std::string vs_base = std::string("vs ") + s.base;
  std::printf("%-7s %-7s %12s %9s %8s\n", "threads", "peer", s.unit, vs_base.c_str(), "vs weft");
  std::fflush(stdout);
  using result_t = decltype(run(peers[0], 1).result);
  result_t want{};
  bool have_want = false;
  const auto measure = [&](const auto& p, int t) {
    progress_step(s.workload, p.name, t);
    auto out = run(p, t);
    if (!have_want) {
      want = std::move(out.result);
      have_want = true;
    } else if (const std::string why = differs(out.result, want); !why.empty()) {
      progress_done();
      mismatch(s.workload, p.name, t, why);
      res.ok = false;
    }
    const double min_ns = *std::min_element(out.ns.begin(), out.ns.end());
    csv.add(s.workload, p.name, t, s.param, "min_ns", min_ns, "ns");
    csv.add(s.workload, p.name, t, s.param, "max_ns", max_of(out.ns), "ns");
    csv.add(s.workload, p.name, t, s.param, "median_ns", median(out.ns), "ns");
    return median(out.ns);
  };
  for (const int t : threads) {
    for (const auto& p : peers)
      if (p.run != nullptr) res.median_ns[{p.name, t}] = measure(p, t);
    progress_done();
    const double base = res.at(s.base, t), weft = res.at("weft", t);
    for (const auto& p : peers) {
      const double ns = res.at(p.name, t);
      std::printf("%-7d %-7s %12s %9s %8s\n", t, p.name, cell(ns / s.unit_ns, "%.3f").c_str(),
                  cell(ns / base, "%.2fx").c_str(), cell(ns / weft, "%.2fx").c_str());
    }
    std::fflush(stdout);
  }
  return res;
}

// The bar every workload shares: weft no slower than the fastest other peer (seq included).
inline void bar_vs_best_peer(const char* workload, const table_result& r,
                             const std::vector<int>& threads) {
  for (const int t : threads)
    bar(std::string("weft ") + workload + " @" + std::to_string(t) + "t / best other peer",
        r.at("weft", t) / r.best_other(t), 1.0, "x");
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

}  // namespace weft_bench
