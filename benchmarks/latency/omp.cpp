// SPDX-License-Identifier: MIT
// Latency of an OpenMP `parallel sections` region with two trivial sections, from main.
#include <omp.h>

#include "latency/config.hpp"

namespace weft_bench::latency {

samples run_omp(int awake_calls, int asleep_calls, int threads) {
  return measure(awake_calls, asleep_calls, [threads] {
    int a = 0, b = 0;
#pragma omp parallel sections num_threads(threads) shared(a, b)
    {
#pragma omp section
      a = 1;
#pragma omp section
      b = 2;
    }
    return a + b;
  });
}

}  // namespace weft_bench::latency
