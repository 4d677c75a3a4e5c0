// SPDX-License-Identifier: MIT
// The package consumer: tests/package/ and test_package/ build this one file against an
// installed, vendored or pkg-config weft. Prints "weft <version>: ok" when every check holds.
#include <weft/weft.hpp>

#include <atomic>
#include <cstdio>
#include <numeric>
#include <vector>

static long fib(int n) {
  if (n < 2) return n;
  auto [a, b] = weft::join([&] { return fib(n - 1); }, [&] { return fib(n - 2); });
  return a + b;
}

int main() {
  std::vector<long> v(1000);
  std::iota(v.begin(), v.end(), 0L);
  std::atomic<long> spawned{0};
  weft::scope([&](auto& s) {
    for (long x : v) s.spawn([&spawned, x] { spawned += x; });
  });
  weft::thread_pool pool({.num_threads = 2});

  bool ok = true;  // one line per API
  ok = ok && fib(20) == 6765;
  ok = ok && spawned == 499500;
  ok = ok && pool.install([] { return fib(15); }) == 610;
  ok = ok && weft::iter(v).sum() == 499500;
  ok = ok && weft::iter(v).map([](long x) { return x * x; }).filter([](long x) { return x % 2 == 0; }).count() == 500;
  // The algorithms reach the engine compiled into libweft (src/plumbing/blocks.cpp): these link
  // against its exported entry points, in a shared libweft too.
  std::vector<long> w(v.rbegin(), v.rend());
  weft::for_each(weft::par, w.begin(), w.end(), [](long& x) { x *= 2; });
  ok = ok && weft::count_if(weft::par, w.begin(), w.end(), [](long x) { return x % 4 == 0; }) == 500;
  ok = ok && weft::find_if(weft::par, w.begin(), w.end(), [](long x) { return x < 10; }) - w.begin() == 995;
  ok = ok && weft::reduce(weft::par, w.begin(), w.end(), 0L) == 999000;
  weft::sort(weft::par, w.begin(), w.end());
  ok = ok && weft::is_sorted(weft::par, w.begin(), w.end()) && w[999] == 1998;
  std::printf("weft %d.%d.%d: %s\n", weft::version_major, weft::version_minor,
              weft::version_patch, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
