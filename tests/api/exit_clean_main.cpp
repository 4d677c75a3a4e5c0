// SPDX-License-Identifier: MIT
// A program that uses the global pool (joins, a parallel pipeline, detached tasks, a
// future) and returns from main without calling weft::shutdown_global: under the ASan
// stage the leak checker runs at exit, under the TSan stage every thread's last accesses
// are checked; either reports make the test fail.
#include <atomic>
#include <cstdio>
#include <vector>

#include "weft/weft.hpp"

namespace {
std::atomic<int> detached_ran{0};
}

int main() {
  std::vector<double> v(100000, 0.5);
  const double sum = weft::iter(v).map([](double x) { return 2 * x; }).sum();
  auto f = weft::async([] { return 7; });
  for (int i = 0; i < 64; ++i) weft::spawn([] { detached_ran.fetch_add(1); });
  weft::wait_idle();
  const auto [a, b] = weft::join([] { return 1; }, [] { return 2; });
  const bool ok = sum == 100000.0 && f.get() == 7 && detached_ran.load() == 64 && a + b == 3;
  if (!ok) std::fprintf(stderr, "exit_clean: wrong results\n");
  return ok ? 0 : 1;
}
