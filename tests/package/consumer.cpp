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
  std::printf("weft %d.%d.%d: %s\n", weft::version_major, weft::version_minor,
              weft::version_patch, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
