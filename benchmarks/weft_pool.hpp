// SPDX-License-Identifier: MIT
// The weft peers' timing frame: `reps` timed calls of `body` inside a fresh pool of
// `threads` threads (thread_pool::install), so that every call runs on that pool.
#pragma once

#include <weft/weft.hpp>

#include <cstddef>

#include "common.hpp"

namespace weft_bench {

template <class Body>
auto in_weft_pool(int threads, int reps, Body body) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] { return time_calls(reps, body); });
}

}  // namespace weft_bench
