// SPDX-License-Identifier: MIT
// The SVG charts of plot.hpp: a tiny SVG writer, log axes, the bar chart and the scaling chart.
#include "plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <tuple>

namespace weft_bench {
namespace {

enum class outcome { nothing_to_draw, written, failed };

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// Just enough SVG: every element is one line of text, coordinates rounded to 0.1 px.
class svg {
 public:
  void text(double x, double y, const std::string& s, int size, const char* anchor = "start",
            bool bold = false) {
    body_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << size << '"'
          << (std::string(anchor) != "start" ? std::string(" text-anchor=\"") + anchor + '"' : "")
          << (bold ? " font-weight=\"bold\"" : "") << '>' << escape(s) << "</text>\n";
  }
  void line(double x1, double y1, double x2, double y2, const char* stroke, double width = 1,
            const char* dash = "") {
    body_ << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2)
          << "\" y2=\"" << num(y2) << "\" stroke=\"" << stroke << "\" stroke-width=\"" << width
          << '"' << (*dash != '\0' ? std::string(" stroke-dasharray=\"") + dash + '"' : "")
          << "/>\n";
  }
  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& tip = "") {
    body_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w)
          << "\" height=\"" << num(h) << "\" fill=\"" << fill << '"';
    if (tip.empty())
      body_ << "/>\n";
    else
      body_ << "><title>" << escape(tip) << "</title></rect>\n";
  }
  void circle(double x, double y, const std::string& fill, const std::string& tip) {
    body_ << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"3\" fill=\"" << fill
          << "\"><title>" << escape(tip) << "</title></circle>\n";
  }
  void polyline(const std::vector<std::pair<double, double>>& pts, const std::string& stroke,
                bool dashed) {
    body_ << "<polyline fill=\"none\" stroke=\"" << stroke << "\" stroke-width=\"1.8\""
          << (dashed ? " stroke-dasharray=\"5 3\"" : "") << " points=\"";
    for (const auto& [x, y] : pts) body_ << num(x) << ',' << num(y) << ' ';
    body_ << "\"/>\n";
  }

  outcome write(const std::filesystem::path& path, double w, double h) const {
    std::ofstream out(path);
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(w) << "\" height=\""
        << num(h) << "\" viewBox=\"0 0 " << num(w) << ' ' << num(h)
        << "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" "
           "fill=\"white\"/>\n"
        << body_.str() << "</svg>\n";
    return out ? outcome::written : outcome::failed;
  }

 private:
  std::ostringstream body_;
};

// One colour per peer, the same in every chart; weft stands out, the sequential peers are grey.
std::string colour_of(const std::string& peer) {
  static const std::map<std::string, std::string> known{
      {"seq", "#9e9e9e"},      {"seq8", "#5f5f5f"},        {"weft", "#e8590c"},
      {"weft-pos", "#f5a623"}, {"weft-global", "#f5a623"}, {"tbb", "#1c7ed6"},
      {"stdpar", "#2f9e44"},   {"omp", "#7048e8"}};
  const auto it = known.find(peer);
  return it != known.end() ? it->second : "#c2255c";
}

bool is_sequential(const std::string& peer) { return peer.rfind("seq", 0) == 0; }

// Legends and bar groups list the peers in one order: sequential ones first, then weft.
bool before(const std::string& a, const std::string& b) {
  static const std::vector<std::string> order{"seq",         "seq8", "weft",   "weft-pos",
                                              "weft-global", "tbb",  "stdpar", "omp"};
  const auto rank = [](const std::string& p) {
    return std::find(order.begin(), order.end(), p) - order.begin();
  };
  return rank(a) != rank(b) ? rank(a) < rank(b) : a < b;
}

// A logarithmic axis from `lo` to `hi` (both nice values) mapped onto pixels [top, bottom].
struct log_axis {
  double lo, hi, top, bottom;

  double y(double v) const {
    return bottom -
           (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) * (bottom - top);
  }
  // 1, 2, 5 per decade; decades only when that would crowd the axis.
  std::vector<double> ticks() const {
    std::vector<double> all, decades;
    for (int k = static_cast<int>(std::floor(std::log10(lo))) - 1;
         k <= static_cast<int>(std::ceil(std::log10(hi))); ++k)
      for (const double m : {1.0, 2.0, 5.0}) {
        const double v = m * std::pow(10.0, k);
        if (v < lo * 0.999 || v > hi * 1.001) continue;
        all.push_back(v);
        if (m == 1.0) decades.push_back(v);
      }
    return all.size() > 8 && decades.size() >= 2 ? decades : all;
  }
};

log_axis make_log_axis(double min, double max, double top, double bottom) {
  const auto down = [](double v) {
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    return v >= 5 * p ? 5 * p : v >= 2 * p ? 2 * p : p;
  };
  const auto up = [](double v) {
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
  };
  double lo = down(min / 1.05), hi = up(max * 1.05);
  if (lo >= hi) hi = up(lo * 1.5);
  return {lo, hi, top, bottom};
}

std::string tick_label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Median ns of each (workload, peer, threads); peers sorted by `before`.
struct medians {
  std::map<std::string, std::vector<std::string>> peers_of;
  std::vector<std::string> all_peers;
  std::map<std::tuple<std::string, std::string, int>, double> ns;

  double at(const std::string& w, const std::string& p, int t) const {
    const auto it = ns.find({w, p, t});
    return it == ns.end() ? std::nan("") : it->second;
  }
  double best_sequential(const std::string& w, int t) const {
    double best = std::nan("");
    for (const auto& p : peers_of.at(w))
      if (const double v = at(w, p, t); is_sequential(p) && !(v >= best)) best = v;
    return best;
  }
};

// The group a row is drawn in: its workload, or "workload/X" when its param says "input=X"
// (sort_u64 measures four inputs; keyed by workload alone, each would overwrite the last).
std::string group_of(const csv_row& r) {
  const auto at = r.param.find("input=");
  if (at == std::string::npos) return r.workload;
  const auto from = at + 6;
  const auto end = r.param.find(';', from);
  return r.workload + "/" + r.param.substr(from, end == std::string::npos ? end : end - from);
}

// The groups of `workloads` in the order their rows appear.
std::vector<std::string> groups_of(const std::vector<csv_row>& rows,
                                   const std::vector<std::string>& workloads) {
  std::vector<std::string> groups;
  for (const auto& w : workloads)
    for (const auto& r : rows)
      if (r.workload == w)
        if (const auto g = group_of(r); std::find(groups.begin(), groups.end(), g) == groups.end())
          groups.push_back(g);
  return groups;
}

medians collect_medians(const std::vector<csv_row>& rows,
                        const std::vector<std::string>& workloads) {
  medians m;
  for (const auto& r : rows) {
    if (r.metric != "median_ns" || !std::isfinite(r.value) || r.value <= 0 ||
        r.peer == "seq-copies" || r.peer == "alloc" ||
        std::find(workloads.begin(), workloads.end(), r.workload) == workloads.end())
      continue;
    const std::string g = group_of(r);
    m.ns[{g, r.peer, r.threads}] = r.value;
    auto& peers = m.peers_of[g];
    if (std::find(peers.begin(), peers.end(), r.peer) == peers.end()) peers.push_back(r.peer);
    if (std::find(m.all_peers.begin(), m.all_peers.end(), r.peer) == m.all_peers.end())
      m.all_peers.push_back(r.peer);
  }
  for (auto& entry : m.peers_of) std::sort(entry.second.begin(), entry.second.end(), before);
  std::sort(m.all_peers.begin(), m.all_peers.end(), before);
  return m;
}

// Title, subtitle and a one-row legend of `peers`; returns the y below them.
double heading(svg& s, const std::string& title, const plot_meta& meta,
               const std::vector<std::string>& peers) {
  s.text(12, 20, title, 14, "start", true);
  s.text(12, 37, meta.machine + ", " + meta.date + (meta.quick ? ", --quick sizes" : ""), 11);
  double x = 12;
  for (const auto& p : peers) {
    s.rect(x, 47, 10, 10, colour_of(p));
    s.text(x + 14, 56, p, 11);
    x += 24 + 6.5 * static_cast<double>(p.size());
  }
  return 70;
}

void y_axis(svg& s, const log_axis& a, double left, double right, const std::string& suffix) {
  for (const double v : a.ticks()) {
    s.line(left, a.y(v), right, a.y(v), "#e6e6e6");
    s.text(left - 4, a.y(v) + 3.5, tick_label(v) + suffix, 10, "end");
  }
  s.line(left, a.top, left, a.bottom, "#444");
}

outcome bar_chart(const std::filesystem::path& path, const medians& m,
                  const std::vector<std::string>& workloads, int t, const plot_meta& meta) {
  struct group {
    std::string workload;
    std::vector<std::pair<std::string, double>> bars;  // peer, ratio to best sequential
  };
  std::vector<group> groups;
  std::vector<std::string> shown;  // the legend: peers with a bar
  double lo = 1, hi = 1;
  for (const auto& w : workloads) {
    if (m.peers_of.count(w) == 0) continue;
    const double base = m.best_sequential(w, t);
    if (!std::isfinite(base)) continue;
    group g{w, {}};
    for (const auto& p : m.peers_of.at(w))
      if (const double v = m.at(w, p, t); std::isfinite(v)) {
        g.bars.emplace_back(p, v / base);
        lo = std::min(lo, v / base);
        hi = std::max(hi, v / base);
        if (std::find(shown.begin(), shown.end(), p) == shown.end()) shown.push_back(p);
      }
    groups.push_back(std::move(g));
  }
  if (groups.empty()) return outcome::nothing_to_draw;
  std::sort(shown.begin(), shown.end(), before);
  constexpr double bar_w = 11, gap = 22, left = 58, right = 14, plot_h = 240;
  // A group's slot: its bars plus the gap, or wider when its label is (labels must not overlap,
  // e.g. sort_u64/few_unique under four bars); about 6 px per character at 10 px.
  const auto slot = [&](const group& g) {
    return std::max(static_cast<double>(g.bars.size()) * bar_w + gap,
                    6.0 * static_cast<double>(g.workload.size()) + 6);
  };
  double width = left + right;
  for (const auto& g : groups) width += slot(g);
  width = std::max(width, 620.0);
  svg s;
  const double top = heading(s,
                             "weft_bench, " + std::to_string(t) + " thread" + (t == 1 ? "" : "s") +
                                 ": median time / fastest sequential peer (log scale)",
                             meta, shown) +
                     8;
  const log_axis a = make_log_axis(lo, hi, top, top + plot_h);
  y_axis(s, a, left, width - right, "x");
  double x = left;
  for (const auto& g : groups) {
    const double gw = static_cast<double>(g.bars.size()) * bar_w;
    const double next = x + slot(g);
    x += (slot(g) - gw) / 2;
    for (const auto& [peer, ratio] : g.bars) {
      const double y0 = a.y(1), y1 = a.y(ratio);
      s.rect(x, std::min(y0, y1), bar_w - 1, std::max(std::fabs(y1 - y0), 1.0), colour_of(peer),
             g.workload + " " + peer + ": " + tick_label(std::round(ratio * 1000) / 1000) + "x");
      x += bar_w;
    }
    s.text(x - gw / 2, a.bottom + 16, g.workload, 10, "middle");
    x = next;
  }
  s.line(left, a.y(1), width - right, a.y(1), "#222", 1.2, "4 3");
  s.text(left, a.bottom + 34,
         "dashed line: 1x, the fastest sequential peer; a bar below it is faster", 10);
  return s.write(path, width, a.bottom + 42);
}

outcome scaling_chart(const std::filesystem::path& path, const medians& m,
                      const std::vector<std::string>& workloads, const std::vector<int>& threads,
                      const plot_meta& meta) {
  std::vector<std::string> drawn;
  for (const auto& w : workloads)
    if (m.peers_of.count(w) != 0) drawn.push_back(w);
  if (drawn.empty()) return outcome::nothing_to_draw;
  constexpr double panel_w = 260, panel_h = 190, pad_left = 52, pad_top = 22, pad_bottom = 34;
  const std::size_t cols = std::min<std::size_t>(3, drawn.size());
  const std::size_t rows = (drawn.size() + cols - 1) / cols;
  const double width = std::max(static_cast<double>(cols) * panel_w + 16, 620.0);
  svg s;
  const double top =
      heading(s, "weft_bench: median time against threads (log scale)", meta, m.all_peers);
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const std::string& w = drawn[i];
    const double px = 8 + static_cast<double>(i % cols) * panel_w;
    const double py = top + static_cast<double>(i / cols) * panel_h;
    double lo = HUGE_VAL, hi = 0;
    for (const auto& [key, v] : m.ns)
      if (std::get<0>(key) == w) lo = std::min(lo, v), hi = std::max(hi, v);
    const auto [unit, unit_ns] = hi >= 1e9   ? std::pair{"s", 1e9}
                                 : hi >= 1e6 ? std::pair{"ms", 1e6}
                                 : hi >= 1e3 ? std::pair{"us", 1e3}
                                             : std::pair{"ns", 1.0};
    const log_axis a =
        make_log_axis(lo / unit_ns, hi / unit_ns, py + pad_top, py + panel_h - pad_bottom);
    const double x0 = px + pad_left, x1 = px + panel_w - 16;
    s.text(px + pad_left, py + 12, w + " (" + unit + ")", 12, "start", true);
    y_axis(s, a, x0, x1, "");
    const auto x_of = [&](std::size_t k) {
      return threads.size() == 1 ? (x0 + x1) / 2
                                 : x0 + 10 +
                                       static_cast<double>(k) * (x1 - x0 - 20) /
                                           static_cast<double>(threads.size() - 1);
    };
    for (std::size_t k = 0; k < threads.size(); ++k)
      s.text(x_of(k), a.bottom + 13, std::to_string(threads[k]), 10, "middle");
    s.text((x0 + x1) / 2, a.bottom + 26, "threads", 10, "middle");
    for (const auto& p : m.peers_of.at(w)) {
      std::vector<std::pair<double, double>> pts;
      std::vector<std::string> tips;
      for (std::size_t k = 0; k < threads.size(); ++k)
        if (const double v = m.at(w, p, threads[k]); std::isfinite(v)) {
          pts.emplace_back(x_of(k), a.y(v / unit_ns));
          tips.push_back(w + " " + p + " @" + std::to_string(threads[k]) + ": " +
                         tick_label(std::round(v / unit_ns * 1000) / 1000) + " " + unit);
        }
      if (pts.size() > 1) s.polyline(pts, colour_of(p), is_sequential(p));
      for (std::size_t k = 0; k < pts.size(); ++k)
        s.circle(pts[k].first, pts[k].second, colour_of(p), tips[k]);
    }
  }
  return s.write(path, width, top + static_cast<double>(rows) * panel_h + 6);
}

}  // namespace

std::string machine_description(double load) {
  std::string cpu = "unknown CPU";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  char buf[96];
  std::snprintf(buf, sizeof buf, ", %u hardware threads, load %.2f at start",
                std::max(1u, static_cast<unsigned>(std::thread::hardware_concurrency())), load);
  return cpu + buf;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

std::vector<std::string> write_plots(const std::string& dir, const std::vector<csv_row>& rows,
                                     const std::vector<std::string>& workloads,
                                     const std::vector<int>& threads, const plot_meta& meta) {
  const medians m = collect_medians(rows, workloads);
  const std::vector<std::string> groups = groups_of(rows, workloads);
  std::vector<int> ts = threads;
  std::sort(ts.begin(), ts.end());
  ts.erase(std::unique(ts.begin(), ts.end()), ts.end());
  std::vector<std::string> written;
  if (m.ns.empty()) return written;
  std::error_code ec;  // a failure shows up as the writes failing below
  std::filesystem::create_directories(dir, ec);
  const auto put = [&](const std::filesystem::path& p, outcome o) {
    if (o == outcome::written) written.push_back(p.string());
    if (o == outcome::failed)
      std::fprintf(stderr, "weft_bench: cannot write %s\n", p.string().c_str());
  };
  for (const int t : ts) {
    const auto p = std::filesystem::path(dir) / ("bars_" + std::to_string(t) + "t.svg");
    put(p, bar_chart(p, m, groups, t, meta));
  }
  const auto p = std::filesystem::path(dir) / "scaling.svg";
  put(p, scaling_chart(p, m, groups, ts, meta));
  return written;
}

}  // namespace weft_bench
