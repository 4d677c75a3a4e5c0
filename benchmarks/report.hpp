// SPDX-License-Identifier: MIT
// Output helpers for the runner: table cells, the project's bars (--check), the CSV rows,
// versions of peers.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifdef WEFT_BENCH_HAVE_TBB
#include <oneapi/tbb/version.h>
#endif

namespace weft_bench {

#ifdef WEFT_BENCH_HAVE_TBB
inline const std::string tbb_version = TBB_VERSION_STRING;
#else
inline const std::string tbb_version = "n/a";
#endif
#ifdef WEFT_BENCH_HAVE_OMP
inline const std::string omp_version = std::to_string(_OPENMP);
#else
inline const std::string omp_version = "n/a";
#endif

// A table cell: "n/a" for peers that were not built and ratios without a base.
inline std::string cell(double v, const char* fmt) {
  if (std::isnan(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Whether the project's bars (its internal targets) are printed: --check.
inline bool& bars_enabled() noexcept {
  static bool on = false;
  return on;
}

// The line that opens a table's bars, e.g. "bars:" (printed with --check only).
inline void bars_heading(const char* text = "bars:") {
  if (bars_enabled()) std::printf("%s\n", text);
}

// What one fork (a join, a task) costs over the sequential code: (time - sequential time) /
// forks, at one thread only (at more, the time is shared among threads), and NaN where the
// difference is within 2 % of the sequential time (noise) or below it.
inline double cost_per_fork(double ns, double seq_ns, double forks, int threads) {
  if (threads != 1 || !(ns - seq_ns > 0.02 * seq_ns)) return std::nan("");
  return (ns - seq_ns) / forks;
}

// One project bar: the measured value against its limit, printed with --check only. Never
// adjusted, only reported.
inline void bar(const std::string& what, double value, double limit, const char* unit) {
  if (!bars_enabled()) return;
  std::printf("  %-46s %9s%-2s (bar <= %g%s)  %s\n", what.c_str(), cell(value, "%.3f").c_str(),
              unit, limit, unit,
              std::isnan(value) ? "n/a"
              : value <= limit  ? "PASS"
                                : "FAIL");
}

// One measurement: a row of the CSV, and what the plots are drawn from.
struct csv_row {
  std::string workload, peer;
  int threads;
  std::string param, metric;
  double value;
  std::string unit;
};

// The group a row is charted and summarised in: its workload, or "workload/X" when its param
// says "input=X" (sort_u64 measures four inputs; keyed by workload alone, each would
// overwrite the last).
inline std::string group_of(const csv_row& r) {
  const auto at = r.param.find("input=");
  if (at == std::string::npos) return r.workload;
  const auto from = at + 6;
  const auto end = r.param.find(';', from);
  return r.workload + "/" + r.param.substr(from, end == std::string::npos ? end : end - from);
}

// A value as the CSV stores it (6 significant digits): the runner keeps every value so, and
// its summary and charts read the same numbers as a report regenerated from the CSV.
inline double as_stored(double v) {
  char num[32];
  std::snprintf(num, sizeof num, "%.6g", v);
  return std::strtod(num, nullptr);
}

// Long format, one measurement per row: workload,peer,threads,param,metric,value,unit.
class csv_sink {
 public:
  void add(const std::string& workload, const std::string& peer, int threads,
           const std::string& param, const std::string& metric, double value, const char* unit) {
    rows_.push_back({workload, peer, threads, param, metric, as_stored(value), unit});
  }

  const std::vector<csv_row>& rows() const noexcept { return rows_; }

  // Reads back a file that write() made (several runs' files concatenated under one header
  // too, as benchmarks/scaling/run keeps them). False, with the line on stderr, if one does
  // not parse.
  bool read(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
      std::fprintf(stderr, "weft_bench: cannot read %s\n", path.c_str());
      return false;
    }
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_no;
      if (line.empty() || line.rfind("workload,", 0) == 0) continue;
      std::vector<std::string> f;
      std::stringstream fields(line);
      for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
      char* threads_end = nullptr;
      char* value_end = nullptr;
      const long threads = f.size() == 7 ? std::strtol(f[2].c_str(), &threads_end, 10) : 0;
      const double value = f.size() == 7 ? std::strtod(f[5].c_str(), &value_end) : 0;
      if (f.size() != 7 || *threads_end != '\0' || threads < 1 || *value_end != '\0') {
        std::fprintf(stderr, "weft_bench: %s:%d: not a weft_bench CSV row: %s\n", path.c_str(),
                     line_no, line.c_str());
        return false;
      }
      rows_.push_back({f[0], f[1], static_cast<int>(threads), f[3], f[4], value, f[6]});
    }
    return true;
  }

  // False, with the reason on stderr, if the file cannot be written.
  bool write(const std::string& path) const {
    const std::filesystem::path p(path);
    std::error_code ec;  // a failure shows up as the open failing below
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
    std::ofstream out(p);
    if (!out) {
      std::fprintf(stderr, "weft_bench: cannot write %s\n", path.c_str());
      return false;
    }
    out << "workload,peer,threads,param,metric,value,unit\n";
    for (const auto& r : rows_) {
      char num[32];
      std::snprintf(num, sizeof num, "%.6g", r.value);
      out << r.workload << ',' << r.peer << ',' << r.threads << ',' << r.param << ',' << r.metric
          << ',' << num << ',' << r.unit << '\n';
    }
    std::printf("\ncsv: %s (%zu rows)\n", path.c_str(), rows_.size());
    return static_cast<bool>(out);
  }

 private:
  std::vector<csv_row> rows_;
};

}  // namespace weft_bench
