// SPDX-License-Identifier: MIT
// scan on OpenMP: the classic two-pass `omp parallel` scan (each thread sums its static
// block, one thread scans the block sums, each thread scans its block from its offset).
#include <omp.h>

#include <vector>

#include "scan/config.hpp"

namespace weft_bench::scan {

timed<std::uint64_t> run_omp(const std::vector<std::int64_t>& in, int threads, int reps) {
  turn_buffer<std::int64_t> out(in.size(), 1);
  const std::int64_t* x = in.data();
  std::int64_t* y = out.data();
  const std::size_t n = in.size();
  auto t = time_calls(reps, [&] {
    std::vector<std::int64_t> sums(static_cast<std::size_t>(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
    {
      const auto id = static_cast<std::size_t>(omp_get_thread_num());
      const auto nt = static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t lo = n * id / nt, hi = n * (id + 1) / nt;
      std::int64_t s = 0;
      for (std::size_t i = lo; i < hi; ++i) s += x[i];
      sums[id + 1] = s;
#pragma omp barrier
#pragma omp single
      for (std::size_t k = 1; k <= nt; ++k) sums[k] += sums[k - 1];
      std::int64_t acc = sums[id];
      for (std::size_t i = lo; i < hi; ++i) {
        acc += x[i];
        y[i] = acc;
      }
    }
    return std::uint64_t{0};
  });
  t.result = checksum(out);
  return t;
}

}  // namespace weft_bench::scan
