// SPDX-License-Identifier: MIT
// The run metadata of run_meta.hpp: gathered from this machine, written and read back.
#include "run_meta.hpp"

#include <sys/utsname.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <weft/version.hpp>

#include "report.hpp"

namespace weft_bench {
namespace {

// The value of `key` in a "key: value" (/proc/cpuinfo) or "KEY=value" (/etc/os-release) file.
std::string value_in(const char* path, const std::string& key, char separator) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    const auto at = line.find(separator);
    if (at == std::string::npos) continue;
    std::string v = line.substr(at + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '"'))
      v.erase(v.begin());
    while (!v.empty() && (v.back() == ' ' || v.back() == '"')) v.pop_back();
    return v;
  }
  return "";
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang++ ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("g++ ") + __VERSION__;
#else
  return "unknown compiler";
#endif
}

std::string join(const std::vector<int>& v) {
  std::string out;
  for (const int x : v) {
    if (!out.empty()) out += ',';
    out += std::to_string(x);
  }
  return out;
}

}  // namespace

std::string run_meta::get(const std::string& key, const std::string& fallback) const {
  for (const auto& [k, v] : fields)
    if (k == key) return v;
  return fallback;
}

std::vector<std::string> run_meta::all(const std::string& key) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : fields)
    if (k == key) out.push_back(v);
  return out;
}

run_meta this_run(const options& o, int argc, char** argv, double load) {
  run_meta m;
  m.add("weft", std::to_string(weft::version_major) + "." + std::to_string(weft::version_minor) +
                    "." + std::to_string(weft::version_patch));
  if (const char* commit = std::getenv("WEFT_BENCH_COMMIT"); commit != nullptr && *commit != 0)
    m.add("commit", commit);
  m.add("date", utc_now());
  const std::string cpu = value_in("/proc/cpuinfo", "model name", ':');
  m.add("cpu", cpu.empty() ? "unknown CPU" : cpu);
  m.add("hardware_threads", std::to_string(std::max(1u, std::thread::hardware_concurrency())));
  const std::string os = value_in("/etc/os-release", "PRETTY_NAME=", '=');
  utsname u{};
  const std::string kernel = uname(&u) == 0 ? std::string(u.sysname) + " " + u.release : "";
  m.add("os", os.empty() ? kernel : kernel.empty() ? os : os + ", " + kernel);
  m.add("compiler", compiler() + " -O3");
  m.add("tbb", tbb_version);
  m.add("openmp", omp_version);
  std::string command = "weft_bench";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  m.add("command", command);
  m.add("reps", std::to_string(o.reps));
  m.add("rounds", std::to_string(o.rounds));
  m.add("threads", join(o.threads));
  m.add("quick", o.quick ? "yes" : "no");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", load);
  m.add("load", buf);
  return m;
}

std::string meta_path_of(const std::string& csv_path) {
  std::filesystem::path p(csv_path);
  p.replace_extension(".meta");
  return p.string();
}

bool write_meta(const std::string& path, const run_meta& m) {
  std::ofstream out(path);
  for (const auto& [k, v] : m.fields) out << k << ": " << v << '\n';
  if (!out) std::fprintf(stderr, "weft_bench: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

run_meta read_meta(const std::string& path) {
  run_meta m;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find(": ");
    if (line.empty() || line[0] == '#' || at == std::string::npos) continue;
    m.add(line.substr(0, at), line.substr(at + 2));
  }
  return m;
}

plot_meta plot_meta_of(const run_meta& m) {
  std::string machine = m.get("cpu", "unknown machine");
  if (const std::string t = m.get("hardware_threads"); !t.empty())
    machine += ", " + t + " hardware threads";
  if (const std::string load = m.get("load"); !load.empty())
    machine += ", load " + load + " at start";
  return {machine, m.get("date"), m.get("quick") == "yes"};
}

std::string openmp_name(const std::string& openmp_date) {
  static const std::pair<const char*, const char*> known[] = {
      {"200505", "2.5"}, {"200805", "3.0"}, {"201107", "3.1"}, {"201307", "4.0"},
      {"201511", "4.5"}, {"201811", "5.0"}, {"202011", "5.1"}, {"202111", "5.2"}};
  for (const auto& [date, name] : known)
    if (openmp_date == date) return name;
  return openmp_date;
}

}  // namespace weft_bench
