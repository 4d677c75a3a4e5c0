// SPDX-License-Identifier: MIT
// The summary and verdict of summary.hpp.
#include "summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace weft_bench {
namespace {

bool is_weft(const std::string& peer) { return peer.rfind("weft", 0) == 0; }
bool is_sequential(const std::string& peer) {
  return peer.rfind("seq", 0) == 0 && peer != "seq-copies";
}

// The workloads with tables of their own instead of summary rows.
bool summarised(const std::string& workload) {
  return workload != "latency" && workload != "idle" && workload != "async_fib" &&
         workload != "try_sum" && workload != "try_each" &&
         workload != "fold_chunks" && workload != "fold_reduce";
}

std::string fmt(const char* f, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Three significant digits.
std::string sig3(double v) {
  return v >= 100 ? fmt("%.0f", v) : v >= 10 ? fmt("%.1f", v) : fmt("%.2f", v);
}

}  // namespace

standing standing_of(const summary_row& r) {
  const double rounded = std::round(r.ratio() * 100) / 100;
  return rounded < 1 - tie_band   ? standing::ahead
         : rounded > 1 + tie_band ? standing::behind
                                  : standing::tied;
}

std::vector<summary_row> summarize(const std::vector<csv_row>& rows) {
  std::vector<std::string> groups;
  std::map<std::pair<std::string, int>, std::vector<std::pair<std::string, double>>> cells;
  for (const auto& r : rows) {
    if (r.metric != "median_ns" || !summarised(r.workload) || !std::isfinite(r.value) ||
        r.value <= 0 ||
        !(is_weft(r.peer) || is_sequential(r.peer) || r.peer == "tbb" || r.peer == "stdpar" ||
          r.peer == "omp"))
      continue;
    const std::string g = group_of(r);
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
    cells[{g, r.threads}].emplace_back(r.peer, r.value);
  }
  std::vector<summary_row> out;
  for (const auto& g : groups)
    for (const auto& [key, peers] : cells) {
      if (key.first != g) continue;
      summary_row s{g, key.second, std::nan(""), "", std::nan(""), std::nan("")};
      for (const auto& [peer, ns] : peers) {
        if (peer == "weft") s.weft_ns = ns;
        if (!is_weft(peer) && !(ns >= s.best_ns)) s.best_ns = ns, s.best_peer = peer;
        if (is_sequential(peer) && !(ns >= s.seq_ns)) s.seq_ns = ns;
      }
      if (!std::isnan(s.weft_ns) && !std::isnan(s.best_ns)) out.push_back(s);
    }
  return out;
}

std::string peer_label(const std::string& peer) {
  if (peer == "tbb") return "oneTBB";
  if (peer == "omp") return "OpenMP";
  if (peer == "stdpar") return "std::execution::par";
  if (peer == "seq") return "sequential";
  // Another sequential variant (seq8, fib's seq-calls): named, so that a reader knows which.
  if (is_sequential(peer)) return "sequential (" + peer + ")";
  return peer;
}

std::string time_text(double ns, const char* micro) {
  if (std::isnan(ns)) return "n/a";
  if (ns >= 1e9) return sig3(ns / 1e9) + " s";
  if (ns >= 1e6) return sig3(ns / 1e6) + " ms";
  if (ns >= 1e3) return sig3(ns / 1e3) + " " + micro;
  return sig3(ns) + " ns";
}

std::string ratio_text(double r) {
  if (std::isnan(r)) return "-";
  if (r >= 10) return fmt("%.0fx", r);
  if (r >= 0.095) return fmt("%.2fx", r);
  return fmt("%.3fx", r);
}

std::string verdict_line(const std::vector<summary_row>& rows) {
  if (rows.empty()) return "verdict: no row compares weft with another peer";
  int ahead = 0, tied = 0;
  std::string behind;
  int n_behind = 0;
  for (const auto& r : rows) {
    const standing s = standing_of(r);
    ahead += s == standing::ahead ? 1 : 0;
    tied += s == standing::tied ? 1 : 0;
    if (s == standing::behind) {
      behind += std::string(n_behind == 0 ? ": " : ", ") + r.group + " " +
                std::to_string(r.threads) + "t (" + ratio_text(r.ratio()) + ")";
      ++n_behind;
    }
  }
  return "verdict: weft is ahead in " + std::to_string(ahead) + " of " +
         std::to_string(rows.size()) + " rows, tied (within 2 %) in " + std::to_string(tied) +
         ", behind in " + std::to_string(n_behind) + behind;
}

void print_summary(const std::vector<summary_row>& rows) {
  std::printf(
      "\n== summary: weft against the fastest other peer at each thread count (medians) ==\n"
      "   best other: the fastest of oneTBB, OpenMP, std::execution::par and the sequential "
      "code;\n   weft/best under 1: weft is faster; within 2 %% of 1: a tie\n"
      "%-20s %7s %10s  %-19s %10s %10s %9s\n",
      "workload", "threads", "weft", "best other", "best", "weft/best", "weft/seq");
  for (const auto& r : rows)
    std::printf("%-20s %7d %10s  %-19s %10s %10s %9s\n", r.group.c_str(), r.threads,
                time_text(r.weft_ns).c_str(), peer_label(r.best_peer).c_str(),
                time_text(r.best_ns).c_str(), ratio_text(r.ratio()).c_str(),
                ratio_text(r.weft_ns / r.seq_ns).c_str());
  std::printf("%s\n", verdict_line(rows).c_str());
}

}  // namespace weft_bench
