// SPDX-License-Identifier: MIT
// Compiled with clang++ (-fsyntax-only, warnings as errors) by the hygiene.clang test: the
// whole public API must build with clang 14 as well as g++ 12, whose full builds CI runs.
// (clang 14 cannot compile libstdc++ 12's std::ranges::subrange or std::views: weft's own
// code avoids them; chunks(n) over a contiguous source gives std::spans, which it compiles;
// chunks(n) over a std::deque and std::views sources need clang 15.)
#include <weft/weft.hpp>

#include <algorithm>
#include <execution>
#include <functional>
#include <span>
#include <string>
#include <vector>

int main() {
  std::vector<double> v(1000, 1.0);
  std::vector<int> a(1000), b(1000), out(2000);
  auto [x, y] = weft::join([] { return 1; }, [] { return std::string("b"); });
  weft::scope([&](weft::task_scope& s) { s.spawn([&] { v[0] = 2; }); });
  weft::scope_fifo([&](weft::task_scope_fifo& s) {
    s.spawn_fifo([&](weft::task_scope_fifo& again) { again.spawn_fifo([&] { v[1] = 2; }); });
  });
  weft::spawn_fifo([] {});
  weft::wait_idle();
  weft::thread_pool pool({.num_threads = 2});
  const double s = pool.install([&] {
    return weft::iter(v).map([](double d) { return d * d; }).filter([](double d) { return d > 0.5; }).sum();
  });
  const auto found = weft::range(0, 100).find_first([](int i) { return i > 50; });
  const auto squares = weft::iter(a).enumerate().map([](auto p) { return p.first; }).to_vector();
  weft::for_each(v, [](double& d) { d += 1; });
  weft::iter(a).chunks(64).for_each([](std::span<int> c) { std::sort(c.begin(), c.end()); });
  const int steps = weft::iter(a).windows(2).map([](std::span<int> w) { return w[1] - w[0]; }).sum();
  std::vector<double> refilled;
  weft::iter(v).map([](double d) { return d / 2; }).collect_into(refilled);
  const auto halves = weft::iter(a).zip(b).unzip();
  const auto last = weft::iter(a).position_last([](int i) { return i == 3; });
  weft::sort(weft::par, a.begin(), a.end());
  weft::stable_sort(a, std::greater<>{});
  weft::transform(std::execution::par, a.begin(), a.end(), b.begin(), [](int i) { return i + 1; });
  const long r = weft::reduce(weft::par, a.begin(), a.end(), 0L) +
                 weft::transform_reduce(weft::par, a.begin(), a.end(), b.begin(), 0L) +
                 weft::count_if(weft::par, a.begin(), a.end(), [](int i) { return i > 3; });
  const auto it = weft::find_if(weft::par, a.begin(), a.end(), [](int i) { return i == 7; });
  weft::set_union(weft::par, a.begin(), a.end(), b.begin(), b.end(), out.begin());
  weft::merge(weft::par, a.begin(), a.end(), b.begin(), b.end(), out.begin());
  return static_cast<int>(s + static_cast<double>(r) + static_cast<double>(x + y.size()) +
                          static_cast<double>(squares.size()) + (found ? 1 : 0) +
                          static_cast<double>(it - a.begin()) + steps +
                          static_cast<double>(refilled.size() + halves.second.size()) +
                          (last ? 1 : 0));
}
