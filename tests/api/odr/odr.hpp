// SPDX-License-Identifier: MIT
// The two-TU ODR test (range-v3 multiple1/2.cpp): what odr_b.cpp offers odr_a.cpp's cases.
#pragma once

#include <cstddef>
#include <optional>

namespace weft_odr {
long fib_b(int n);                          // weft::join recursion compiled in TU b
long scope_sum_b(long n);                   // 0 + 1 + ... + n - 1 by weft::scope in TU b
long join_leaves_b();                       // weft::join(leaf_one, leaf_two): same instance as a's
std::optional<std::size_t> index_in_b();    // weft::thread_index() seen from TU b
std::size_t num_threads_in_b();             // weft::num_threads() seen from TU b
long leaf_one();
long leaf_two();
}  // namespace weft_odr
