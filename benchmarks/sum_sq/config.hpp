// SPDX-License-Identifier: MIT
// sum_sq: the sum of x*x over a large vector of doubles (memory-bound): size, loops, peers.
#pragma once

#include <cstddef>
#include <vector>

#include "common.hpp"

#ifdef WEFT_BENCH_HAVE_TBB
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <functional>
#endif

namespace weft_bench::sum_sq {

inline constexpr std::size_t default_n = 50'000'000;
inline constexpr std::size_t quick_n = 5'000'000;

// Values in [0, 1) with a short period: cheap to make, and every association of the sum
// agrees to far better than the check's 1e-9.
inline std::vector<double> make_input(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i % 1000) / 1000.0;
  return v;
}

inline constexpr auto square = [](double x) { return x * x; };

// The plain loop: one accumulator. Without -ffast-math the compiler may not reassociate it,
// so it stays scalar, bound by the latency of one add per item.
inline double sum_sq_scalar(const double* x, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}

// The same loop with 8 independent accumulators, the association weft's floating-point
// sum() uses in each leaf: it vectorises. Every peer that folds a run itself uses it.
// The loop runs over a count of 8-item blocks on purpose: written as
// `for (; i + 8 <= n; i += 8) l[k] += x[i + k]...`, GCC 12 often vectorises it as a
// stride-8 interleaved group (movhpd/unpcklpd shuffles, ~2.7x the instructions) instead of
// one packed add per pair of lanes (docs/benchmarks.md#iterator-pipelines).
inline constexpr std::size_t lanes = 8;
inline double sum_sq_lanes(const double* x, std::size_t n) {
  double l[lanes] = {};
  const std::size_t blocks = n / lanes;
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t k = 0; k < lanes; ++k) l[k] += x[b * lanes + k] * x[b * lanes + k];
  for (std::size_t i = blocks * lanes, k = 0; i < n; ++i, ++k) l[k] += x[i] * x[i];
  return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
}

// The sums of the OpenMP and oneTBB peers, which tiny's peers (the same sum on a short
// vector) call too; each exists only where its runtime was built. They stay inline so that
// each peer's loop is compiled into its timing loop, as a hand-written one would be.
#ifdef WEFT_BENCH_HAVE_OMP
// `parallel for simd reduction(+)`, which lets each thread vectorise.
inline double sum_sq_omp(const std::vector<double>& v, int threads) {
  const double* x = v.data();
  const std::size_t n = v.size();
  double s = 0;
#pragma omp parallel for simd num_threads(threads) reduction(+ : s)
  for (std::size_t i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}
#endif
#ifdef WEFT_BENCH_HAVE_TBB
// parallel_reduce over a blocked_range, each chunk summed with 8 lanes; the caller caps the
// threads.
inline double sum_sq_tbb(const std::vector<double>& v) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, v.size()), 0.0,
      [&](const tbb::blocked_range<std::size_t>& r, double acc) {
        return acc + sum_sq_lanes(v.data() + r.begin(), r.size());
      },
      std::plus<>{});
}
#endif

// Wall ns of `reps` sums of v on `threads` threads after one warm-up, and the sum.
using run_fn = timed<double>(const std::vector<double>& v, int threads, int reps);
run_fn run_seq, run_seq_lanes, run_weft, run_tbb, run_stdpar, run_omp;
inline constexpr auto peers =
    with_peer(standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp), 1,
              {"seq8", &run_seq_lanes});

}  // namespace weft_bench::sum_sq
