// SPDX-License-Identifier: MIT
// collect: a mapped copy of a large vector of doubles into a new vector, allocation included
// (memory-bound). Size, the item function, peers.
#pragma once

#include <cstddef>
#include <vector>

#include "common.hpp"
#include "sum_sq/config.hpp"

namespace weft_bench::collect {

inline constexpr std::size_t default_n = 50'000'000;
inline constexpr std::size_t quick_n = 5'000'000;

using sum_sq::make_input;
inline constexpr auto transform = [](double x) { return x * 2.0 + 1.0; };

// Wall ns of `reps` mapped copies of v on `threads` threads after one warm-up, and the copy.
using run_fn = timed<std::vector<double>>(const std::vector<double>& v, int threads, int reps);
run_fn run_seq, run_weft, run_weft_into, run_tbb, run_stdpar, run_omp;

// Not a peer: `std::vector<double> out(n)` alone, the sequential allocation and zero-fill
// that every peer here pays before its parallel part. weft's to_vector() zero-fills too, but
// on memory whose pages it faulted in beforehand, in parallel and on huge pages.
std::vector<double> run_alloc(std::size_t n, int reps);

// weft-into: collect_into one vector call after call (its allocation reused: no allocation,
// no page faults), which no peer here is asked to do; not counted as a peer.
inline constexpr auto peers =
    with_peer(standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp), 2,
              {"weft-into", &run_weft_into});

}  // namespace weft_bench::collect
