// SPDX-License-Identifier: MIT
// noise_sum on weft: map_init, a generator per leaf.
#include <weft/weft.hpp>

#include "noise_sum/config.hpp"

namespace weft_bench::noise_sum {

timed<double> run_weft(const std::vector<double>& v, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] {
    return time_calls(reps, [&] {
      return weft::iter(v)
          .map_init([] { return std::mt19937_64(next_seed()); },
                    [](std::mt19937_64& g, double x) { return x + unit(g); })
          .sum();
    });
  });
}

}  // namespace weft_bench::noise_sum
