// SPDX-License-Identifier: MIT
// collect on weft: iter(v).map(f).to_vector(), and collect_into one reused vector, inside
// thread_pool::install.
#include <weft/weft.hpp>

#include "collect/config.hpp"

namespace weft_bench::collect {

timed<std::vector<double>> run_weft(const std::vector<double>& v, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install(
      [&] { return time_calls(reps, [&] { return weft::iter(v).map(transform).to_vector(); }); });
}

timed<std::vector<double>> run_weft_into(const std::vector<double>& v, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  std::vector<double> out;  // the warm-up call allocates it
  auto t = pool.install([&] {
    return time_calls(reps, [&] {
      weft::iter(v).map(transform).collect_into(out);
      return out.data();
    });
  });
  return {std::move(t.ns), std::move(out), t.calls};
}

}  // namespace weft_bench::collect
