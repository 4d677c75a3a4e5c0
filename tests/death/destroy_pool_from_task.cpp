// SPDX-License-Identifier: MIT
// Destroying a pool from one of its own tasks must stop with a clear message, not hang.
#include <memory>

#include "weft/weft.hpp"

int main() {
  auto pool = std::make_unique<weft::thread_pool>(weft::pool_options{.num_threads = 2});
  pool->install([&] { pool.reset(); });
  return 0;  // not reached
}
