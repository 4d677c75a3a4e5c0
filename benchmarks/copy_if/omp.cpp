// SPDX-License-Identifier: MIT
// copy_if on OpenMP: two passes in one `omp parallel` (each thread counts its static block,
// one thread scans the counts, each thread copies its block from its offset).
#include <omp.h>

#include <vector>

#include "copy_if/config.hpp"

namespace weft_bench::copy_if {

timed<std::uint64_t> run_omp(const std::vector<std::int64_t>& in, int threads, int reps) {
  turn_buffer<std::int64_t> out(in.size(), 1);
  const std::int64_t* x = in.data();
  std::int64_t* y = out.data();
  const std::size_t n = in.size();
  std::size_t kept = 0;
  auto t = time_calls(reps, [&] {
    std::vector<std::size_t> counts(static_cast<std::size_t>(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
    {
      const auto id = static_cast<std::size_t>(omp_get_thread_num());
      const auto nt = static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t lo = n * id / nt, hi = n * (id + 1) / nt;
      std::size_t c = 0;
      for (std::size_t i = lo; i < hi; ++i) c += keep(x[i]) ? 1 : 0;
      counts[id + 1] = c;
#pragma omp barrier
#pragma omp single
      for (std::size_t k = 1; k <= nt; ++k) counts[k] += counts[k - 1];
      std::size_t k = counts[id];
      for (std::size_t i = lo; i < hi; ++i)
        if (keep(x[i])) y[k++] = x[i];
#pragma omp single nowait
      kept = counts[nt];
    }
    return std::uint64_t{0};
  });
  t.result = checksum(out, kept);
  return t;
}

}  // namespace weft_bench::copy_if
