// SPDX-License-Identifier: MIT
// tiny: many back-to-back sums of x*x over a short vector, called from main: what one
// parallel call costs when the input is too small to split. Size, batching, peers.
#pragma once

#include <cstddef>
#include <vector>

#include "common.hpp"
#include "sum_sq/config.hpp"

namespace weft_bench::tiny {

inline constexpr std::size_t default_n = 1'000;
inline constexpr int default_calls = 200'000;
inline constexpr int quick_calls = 20'000;
// Calls per clock reading: a call is a few tens of ns, about what one steady_clock read costs.
inline constexpr int batch_calls = 1'000;

using sum_sq::square;
using sum_sq::sum_sq_lanes;
using sum_sq::sum_sq_scalar;

// ns per call of each batch of batch_calls calls (one untimed batch first), and the sum.
template <class F>
timed<double> time_batches(int calls, F&& f) {
  timed<double> out;
  for (int i = 0; i < batch_calls; ++i) keep(f());
  for (int b = 0; b < calls / batch_calls; ++b) {
    const std::int64_t t0 = now_ns();
    for (int i = 0; i < batch_calls; ++i) {
      out.result = f();
      keep(out.result);
    }
    out.ns.push_back(static_cast<double>(now_ns() - t0) / batch_calls);
  }
  return out;
}

// `calls` sums of a from main on `threads` threads. weft runs on the global pool (sized by
// WEFT_NUM_THREADS or the hardware), as code outside any install does.
using run_fn = timed<double>(const std::vector<double>& a, int threads, int calls);
run_fn run_seq;
run_fn run_seq_lanes;
run_fn run_weft;
run_fn run_tbb;
run_fn run_stdpar;
run_fn run_omp;

inline const peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"seq8", &run_seq_lanes},
    {"weft", &run_weft},
    {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
    {"stdpar", WEFT_BENCH_IF_STDPAR(&run_stdpar)},
    {"omp", WEFT_BENCH_IF_OMP(&run_omp)},
};

}  // namespace weft_bench::tiny
