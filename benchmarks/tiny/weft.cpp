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

install_pairing time_install_paired(const std::vector<double>& a, int pairs) {
  weft::thread_pool pool({.num_threads = weft::num_threads()});
  const auto from_main = [&] { return weft::iter(a).map(square).sum(); };
  const auto through_install = [&] {
    return pool.install([&] { return weft::iter(a).map(square).sum(); });
  };
  const auto batch = [](auto& f) {
    const std::int64_t t0 = now_ns();
    for (int i = 0; i < batch_calls; ++i) keep(f());
    return static_cast<double>(now_ns() - t0) / batch_calls;
  };
  batch(from_main);  // warm-up: the call site's record, and the bias on the pool's seat
  batch(through_install);
  std::vector<double> global, install, ratio;
  for (int k = 0; k < pairs; ++k) {
    double g = 0, i = 0;
    if (k % 2 == 0) {
      g = batch(from_main);
      i = batch(through_install);
    } else {
      i = batch(through_install);
      g = batch(from_main);
    }
    global.push_back(g);
    install.push_back(i);
    ratio.push_back(i / g);
  }
  return {median(global), median(install), median(ratio), pairs};
}

}  // namespace weft_bench::tiny
