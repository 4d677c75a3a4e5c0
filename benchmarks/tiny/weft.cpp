// SPDX-License-Identifier: MIT
// tiny on weft: iter(a).map(square).sum() from main, outside any install (the global pool),
// sized by WEFT_NUM_THREADS (weft) or by weft::configure_global from code (weft-cfg); and
// each call through pool.install on a thread_pool of the same size (weft-install).
#include <weft/weft.hpp>

#include "tiny/config.hpp"

namespace weft_bench::tiny {

timed<double> run_weft(const std::vector<double>& a, int /*threads*/, int calls) {
  return time_batches(calls, [&] { return weft::iter(a).map(square).sum(); });
}

// The same calls on a global pool of the same size built from weft::configure_global: the
// process's global pool is shut down, configured from code, used, then shut down again and
// left to WEFT_NUM_THREADS for the next workload.
timed<double> run_weft_configured(const std::vector<double>& a, int /*threads*/, int calls) {
  const std::size_t threads = weft::num_threads();
  weft::shutdown_global();
  weft::configure_global({.num_threads = threads});
  timed<double> out = time_batches(calls, [&] { return weft::iter(a).map(square).sum(); });
  weft::shutdown_global();
  weft::configure_global({});
  return out;
}

// Each call enters a warm thread_pool from main through install: what install adds to a
// call on the global pool (the caller seat, biased to main after its first takes).
timed<double> run_weft_install(const std::vector<double>& a, int /*threads*/, int calls) {
  weft::thread_pool pool({.num_threads = weft::num_threads()});
  return time_batches(calls, [&] {
    return pool.install([&] { return weft::iter(a).map(square).sum(); });
  });
}

}  // namespace weft_bench::tiny
