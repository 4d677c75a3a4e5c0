// SPDX-License-Identifier: MIT
// lines on OpenMP: one block per thread, each from its first line start.
#include <omp.h>

#include "lines/config.hpp"

namespace weft_bench::lines {

timed<std::size_t> run_omp(const std::string& t, int threads, int reps) {
  return time_calls(reps, [&] {
    std::size_t total = 0;
    const std::size_t n = t.size();
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
      const std::size_t k = static_cast<std::size_t>(omp_get_thread_num());
      const std::size_t parts = static_cast<std::size_t>(omp_get_num_threads());
      total += line_lengths_from(t, n / parts * k, k + 1 == parts ? n : n / parts * (k + 1));
    }
    return total;
  });
}

}  // namespace weft_bench::lines
