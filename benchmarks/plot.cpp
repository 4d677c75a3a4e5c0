// SPDX-License-Identifier: MIT
// The SVG charts of plot.hpp: a tiny SVG writer, a linear axis, the bar chart and the scaling
// chart.
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
  // `halo`: a white outline under the glyphs, for a label drawn over lines.
  void text(double x, double y, const std::string& s, int size, const char* anchor = "start",
            bool bold = false, bool halo = false) {
    body_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << size << '"'
          << (std::string(anchor) != "start" ? std::string(" text-anchor=\"") + anchor + '"' : "")
          << (bold ? " font-weight=\"bold\"" : "")
          << (halo ? " stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\"" : "") << '>'
          << escape(s) << "</text>\n";
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
      {"seq", "#9e9e9e"},       {"seq8", "#5f5f5f"},      {"weft", "#e8590c"},
      {"weft-pos", "#f5a623"},  {"weft-into", "#a0522d"}, {"weft-join", "#ffc078"},
      {"weft-tg", "#c2255c"},   {"weft-global", "#f5a623"}, {"tbb", "#1c7ed6"},
      {"stdpar", "#2f9e44"},    {"omp", "#7048e8"}};
  const auto it = known.find(peer);
  return it != known.end() ? it->second : "#c2255c";
}

bool is_sequential(const std::string& peer) { return peer.rfind("seq", 0) == 0; }

// Legends and bar groups list the peers in one order: sequential ones first, then weft.
bool before(const std::string& a, const std::string& b) {
  static const std::vector<std::string> order{
      "seq",         "seq8", "weft",   "weft-pos", "weft-into", "weft-join", "weft-tg",
      "weft-global", "tbb",  "stdpar", "omp"};
  const auto rank = [](const std::string& p) {
    return std::find(order.begin(), order.end(), p) - order.begin();
  };
  return rank(a) != rank(b) ? rank(a) < rank(b) : a < b;
}

// A linear axis from 0 to `hi` mapped onto pixels [from, to] (x to the right, or y upwards
// when from > to).
struct lin_axis {
  double hi, from, to;

  double at(double v) const { return from + v / hi * (to - from); }
  // 1, 2 or 5 times a power of ten, about five steps over the axis.
  double step() const {
    const double raw = hi / 5;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
  }
};

// A round number at or above `max`: 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten.
double nice_top(double max) {
  const double p = std::pow(10.0, std::floor(std::log10(max)));
  for (const double m : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0})
    if (m * p >= max) return m * p;
  return 10 * p;
}

std::string tick_label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// "1.04x", "0.21x", "76x": as the summary prints ratios.
std::string ratio_label(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, r >= 10 ? "%.0fx" : r >= 0.095 ? "%.2fx" : "%.3fx", r);
  return buf;
}

// Median ns of each (group, peer, threads); peers sorted by `before`.
struct medians {
  std::map<std::string, std::vector<std::string>> peers_of;
  std::vector<std::string> all_peers;
  std::map<std::tuple<std::string, std::string, int>, double> ns;

  double at(const std::string& w, const std::string& p, int t) const {
    const auto it = ns.find({w, p, t});
    return it == ns.end() ? std::nan("") : it->second;
  }
  double best(const std::string& w, int t, bool sequential_only) const {
    double best = std::nan("");
    for (const auto& p : peers_of.at(w))
      if (const double v = at(w, p, t);
          !std::isnan(v) && (!sequential_only || is_sequential(p)) && !(v >= best))
        best = v;
    return best;
  }
};

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
        r.peer == "seq-copies" || r.peer == "alloc" || r.peer == "seq-calls" ||
        r.peer == "weft-calls" || std::find(workloads.begin(), workloads.end(), r.workload) == workloads.end())
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
  std::string sub = meta.machine;
  if (!meta.date.empty()) sub += ", " + meta.date;
  if (meta.quick) sub += ", --quick sizes";
  s.text(12, 37, sub, 11);
  double x = 12;
  for (const auto& p : peers) {
    s.rect(x, 47, 10, 10, colour_of(p));
    s.text(x + 14, 56, p, 11);
    x += 24 + 6.5 * static_cast<double>(p.size());
  }
  return 70;
}

// Each peer's median over the fastest peer's of its group at `t` threads, as horizontal bars
// on a linear scale from 0 (1x: the fastest; a tie shows as bars of equal length), each with
// its value and peer written at its end; bars past the scale's end are cut, marked, and
// labelled with their value. The groups run down two columns.
outcome bar_chart(const std::filesystem::path& path, const medians& m,
                  const std::vector<std::string>& workloads, int t, const plot_meta& meta) {
  struct group {
    std::string name;
    std::vector<std::pair<std::string, double>> bars;  // peer, ratio to the fastest
  };
  std::vector<group> groups;
  std::vector<std::string> shown;  // the legend: peers with a bar
  double hi = 1;
  std::size_t total_bars = 0;
  for (const auto& w : workloads) {
    if (m.peers_of.count(w) == 0) continue;
    const double base = m.best(w, t, false);
    if (!std::isfinite(base)) continue;
    group g{w, {}};
    for (const auto& p : m.peers_of.at(w))
      if (const double v = m.at(w, p, t); std::isfinite(v)) {
        g.bars.emplace_back(p, v / base);
        hi = std::max(hi, v / base);
        if (std::find(shown.begin(), shown.end(), p) == shown.end()) shown.push_back(p);
      }
    total_bars += g.bars.size();
    groups.push_back(std::move(g));
  }
  if (groups.empty()) return outcome::nothing_to_draw;
  std::sort(shown.begin(), shown.end(), before);
  // The scale ends at 3x, or sooner when every bar is shorter: a few 50x bars must not
  // squeeze the ties near 1x into a pixel.
  constexpr double max_scale = 3;
  const double scale = std::min(max_scale, std::max(1.5, std::ceil(hi * 2 - 1e-9) / 2));
  constexpr double pitch = 11, bar_h = 9, group_gap = 10, label_w = 122, bars_w = 215,
                   col_w = 440, margin = 12;
  // Groups fill the first column until it holds about half of the bars.
  std::size_t split = groups.size(), acc = 0;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    acc += groups[i].bars.size();
    if (2 * acc >= total_bars) {
      split = i + 1;
      break;
    }
  }
  const auto column_h = [&](std::size_t from, std::size_t to) {
    double h = 0;
    for (std::size_t i = from; i < to; ++i)
      h += static_cast<double>(groups[i].bars.size()) * pitch + group_gap;
    return h;
  };
  const bool two = split < groups.size();
  const double width = two ? 2 * col_w + 2 * margin : col_w + 2 * margin;
  svg s;
  const double top =
      heading(s,
              "weft_bench, " + std::to_string(t) + " thread" + (t == 1 ? "" : "s") +
                  ": median time / the fastest peer's, per workload (shorter is faster)",
              meta, shown) +
      22;
  const double plot_h = std::max(column_h(0, split), column_h(split, groups.size()));
  for (int col = 0; col < (two ? 2 : 1); ++col) {
    const double x0 = margin + col * col_w + label_w;
    const lin_axis a{scale, x0, x0 + bars_w};
    for (double v = 0; v <= scale + 1e-9; v += 0.5) {
      const bool whole = std::fabs(v - std::round(v)) < 1e-9;
      if (v == 1)
        s.line(a.at(v), top - 4, a.at(v), top + plot_h, "#222", 1.2, "4 3");
      else
        s.line(a.at(v), top - 4, a.at(v), top + plot_h, whole ? "#d0d0d0" : "#ececec");
      if (whole) s.text(a.at(v), top - 8, v == 0 ? "0" : tick_label(v) + "x", 10, "middle");
    }
    double y = top;
    for (std::size_t i = col == 0 ? 0 : split; i < (col == 0 ? split : groups.size()); ++i) {
      const group& g = groups[i];
      const double gh = static_cast<double>(g.bars.size()) * pitch;
      s.text(x0 - 6, y + gh / 2 + 3.5, g.name, 10, "end", true);
      for (const auto& [peer, ratio] : g.bars) {
        const bool cut = ratio > scale;
        const double end = a.at(std::min(ratio, scale));
        s.rect(x0, y + 1, std::max(end - x0, 1.0), bar_h, colour_of(peer),
               g.name + " " + peer + ": " + ratio_label(ratio));
        if (cut) {  // a break near the cut end
          s.line(end - 9, y + bar_h + 1, end - 5, y + 1, "white", 2);
          s.line(end - 5, y + bar_h + 1, end - 1, y + 1, "white", 2);
        }
        s.text(end + 4, y + bar_h, ratio_label(ratio) + " " + peer, 9, "start",
               cut || peer == "weft");
        y += pitch;
      }
      y += group_gap;
      s.line(x0 - label_w + 6, y - group_gap / 2, x0 + bars_w + 90, y - group_gap / 2,
             "#f2f2f2");
    }
  }
  s.text(margin, top + plot_h + 16,
         "1x (dashed): the fastest peer of the workload; bars past " + tick_label(scale) +
             "x are cut (white break) and labelled with their value",
         10);
  return s.write(path, width, top + plot_h + 26);
}

// One panel per workload: each parallel peer's speed-up over the fastest sequential peer at
// the same thread count (at the smallest count, for a workload without one), on a linear
// scale; the dashed line is the sequential code, weft's points carry their values.
outcome scaling_chart(const std::filesystem::path& path, const medians& m,
                      const std::vector<std::string>& workloads, const std::vector<int>& threads,
                      const plot_meta& meta) {
  std::vector<std::string> drawn;
  for (const auto& w : workloads)
    if (m.peers_of.count(w) != 0) drawn.push_back(w);
  if (drawn.empty()) return outcome::nothing_to_draw;
  constexpr double panel_w = 290, panel_h = 180, pad_left = 40, pad_top = 24, pad_bottom = 34;
  const std::size_t cols = std::min<std::size_t>(3, drawn.size());
  const std::size_t rows = (drawn.size() + cols - 1) / cols;
  const double width = std::max(static_cast<double>(cols) * panel_w + 16, 620.0);
  std::vector<std::string> legend;
  for (const auto& p : m.all_peers)
    if (!is_sequential(p)) legend.push_back(p);
  svg s;
  const double top = heading(s,
                             "weft_bench: speed-up over the fastest sequential code against "
                             "threads (higher is faster)",
                             meta, legend);
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const std::string& w = drawn[i];
    const double px = 8 + static_cast<double>(i % cols) * panel_w;
    const double py = top + static_cast<double>(i / cols) * panel_h;
    bool per_count = true;
    for (const int t : threads)
      if (std::isnan(m.best(w, t, true)) && !std::isnan(m.best(w, t, false))) per_count = false;
    double first_best = std::nan("");
    for (const int t : threads)
      if (std::isnan(first_best)) first_best = m.best(w, t, false);
    const auto base = [&](int t) { return per_count ? m.best(w, t, true) : first_best; };
    double hi = 1;
    for (const auto& p : m.peers_of.at(w))
      for (const int t : threads)
        if (const double v = base(t) / m.at(w, p, t); !is_sequential(p) && std::isfinite(v))
          hi = std::max(hi, v);
    const lin_axis a{nice_top(hi * 1.08), py + panel_h - pad_bottom, py + pad_top};
    const double x0 = px + pad_left, x1 = px + panel_w - 18;
    s.text(px + pad_left, py + 12,
           per_count ? w : w + " (1x: fastest @" + std::to_string(threads.front()) + "t)", 12,
           "start", true);
    for (double v = 0; v <= a.hi + 1e-9; v += a.step()) {
      s.line(x0, a.at(v), x1, a.at(v), "#e6e6e6");
      s.text(x0 - 4, a.at(v) + 3.5, tick_label(v) + "x", 10, "end");
    }
    s.line(x0, a.from, x0, a.to, "#444");
    s.line(x0, a.at(1), x1, a.at(1), "#222", 1.2, "4 3");
    const auto x_of = [&](std::size_t k) {
      return threads.size() == 1 ? (x0 + x1) / 2
                                 : x0 + 14 +
                                       static_cast<double>(k) * (x1 - x0 - 28) /
                                           static_cast<double>(threads.size() - 1);
    };
    for (std::size_t k = 0; k < threads.size(); ++k)
      s.text(x_of(k), a.from + 13, std::to_string(threads[k]), 10, "middle");
    s.text((x0 + x1) / 2, a.from + 26, "threads", 10, "middle");
    // weft drawn last, over the others, and its values over everything.
    std::vector<std::string> peers;
    for (const auto& p : m.peers_of.at(w))
      if (!is_sequential(p) && p != "weft") peers.push_back(p);
    if (const auto& all = m.peers_of.at(w); std::find(all.begin(), all.end(), "weft") != all.end())
      peers.push_back("weft");
    std::vector<std::pair<std::pair<double, double>, std::string>> weft_labels;
    for (const auto& p : peers) {
      std::vector<std::pair<double, double>> pts;
      std::vector<std::string> labels;
      for (std::size_t k = 0; k < threads.size(); ++k)
        if (const double v = base(threads[k]) / m.at(w, p, threads[k]); std::isfinite(v)) {
          pts.emplace_back(x_of(k), a.at(v));
          labels.push_back(ratio_label(v));
        }
      if (pts.size() > 1) s.polyline(pts, colour_of(p), false);
      for (std::size_t k = 0; k < pts.size(); ++k) {
        s.circle(pts[k].first, pts[k].second, colour_of(p), w + " " + p + ": " + labels[k]);
        if (p == "weft") weft_labels.push_back({pts[k], labels[k]});
      }
    }
    for (const auto& [at, label] : weft_labels)
      s.text(at.first, at.second - 6, label, 9, "middle", true, true);
  }
  s.text(12, top + static_cast<double>(rows) * panel_h + 10,
         "dashed line: the fastest sequential code (1x); weft's points carry their speed-up", 10);
  return s.write(path, width, top + static_cast<double>(rows) * panel_h + 20);
}

}  // namespace

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
                                     const std::vector<int>& threads, const plot_meta& meta,
                                     const plot_names& names) {
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
    if (names.bars.empty()) break;
    const auto p = std::filesystem::path(dir) / (names.bars + std::to_string(t) + "t.svg");
    put(p, bar_chart(p, m, groups, t, meta));
  }
  if (!names.scaling.empty()) {
    const auto p = std::filesystem::path(dir) / names.scaling;
    put(p, scaling_chart(p, m, groups, ts, meta));
  }
  return written;
}

}  // namespace weft_bench
