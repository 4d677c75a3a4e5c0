// SPDX-License-Identifier: MIT
// Second translation unit of the ODR test: the same weft headers, and one template instance
// (join<long (&)(), long (&)()>) that odr_a.cpp instantiates too.
#include <atomic>

#include "odr.hpp"
#include "weft/weft.hpp"

namespace weft_odr {

long fib_b(int n) {
  if (n < 2) return n;
  auto [x, y] = weft::join([&] { return fib_b(n - 1); }, [&] { return fib_b(n - 2); });
  return x + y;
}

long scope_sum_b(long n) {
  std::atomic<long> sum{0};
  weft::scope([&](auto& s) {
    for (long i = 0; i < n; ++i) s.spawn([&sum, i] { sum += i; });
  });
  return sum.load();
}

long join_leaves_b() {
  auto [x, y] = weft::join(leaf_one, leaf_two);
  return x + y;
}

std::optional<std::size_t> index_in_b() { return weft::thread_index(); }
std::size_t num_threads_in_b() { return weft::num_threads(); }

}  // namespace weft_odr
