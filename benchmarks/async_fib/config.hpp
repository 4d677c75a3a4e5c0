// SPDX-License-Identifier: MIT
// async_fib: fib(n) with weft::async + future::get at every level, against the same
// recursion with weft::join and sequential fib.
#pragma once

#include <vector>

#include "common.hpp"
#include "fib/config.hpp"

namespace weft_bench::async_fib {

inline constexpr int default_n = 25;
inline constexpr int quick_n = 20;

using run_fn = std::vector<double>(int n, int threads, int reps);
run_fn run_seq;
run_fn run_weft;       // async + get at every level
run_fn run_weft_join;  // join at every level

inline const peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"weft-join", &run_weft_join},
};

}  // namespace weft_bench::async_fib
