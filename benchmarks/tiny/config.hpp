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
// --quick: 5 batches of 100 calls. On an oversubscribed machine the OpenMP peer at 2 threads
// can wait a scheduler slice in each call (batches at 12 ms per call were seen, 12 s for a
// batch of 1,000), which made tiny alone half of a 70 s --quick run; 600 calls bound it.
inline constexpr int quick_calls = 500;
// The medium workload: the same calls on inputs worth forking for (~12 us of work a call at
// one thread with 8 lanes, ~80 us for the scalar seq).
inline constexpr std::size_t medium_n = 100'000;
inline constexpr int medium_calls = 10'000;
// Calls per clock reading: a call is a few tens of ns, about what one steady_clock read costs.
inline constexpr int batch_calls = 1'000;
// The batch size for `calls` calls (one round's): batch_calls, or smaller so that there are
// >= 5 batches.
constexpr int batch_size(int calls) {
  return calls / 5 < batch_calls ? (calls / 5 > 0 ? calls / 5 : 1) : batch_calls;
}

using sum_sq::square;
using sum_sq::sum_sq_lanes;
using sum_sq::sum_sq_scalar;

// ns per call of each batch of batch_size(calls) calls (one untimed batch first), and the sum.
template <class F>
timed<double> time_batches(int calls, F&& f) {
  timed<double> out;
  const int batch = batch_size(calls);
  for (int i = 0; i < batch; ++i) keep(f());
  for (int b = 0; b < calls / batch; ++b) {
    const std::int64_t t0 = now_ns();
    for (int i = 0; i < batch; ++i) {
      out.result = f();
      keep(out.result);
    }
    out.ns.push_back(static_cast<double>(now_ns() - t0) / batch);
  }
  return out;
}

// install against the global pool, paired: batches of each path alternate in one loop (the
// pair's order alternating too), so that whatever state the machine is in lands on both.
// The table times each peer in turns of its own, and the two weft rows of one configuration
// (the global pool has the environment's size at every thread count of the table) read
// 0.97x and 1.03x in one run on the reference machine: a turn's state, not install's cost.
struct install_pairing {
  double global_ns;   // median ns per call from main on the global pool
  double install_ns;  // median ns per call through install on a thread_pool of its size
  double ratio;       // median over the pairs of install's batch over the global pool's
  int pairs;
};
install_pairing time_install_paired(const std::vector<double>& a, int pairs);

// `calls` sums of a from main on `threads` threads. weft runs on the global pool (sized by
// WEFT_NUM_THREADS or the hardware), as code outside any install does.
using run_fn = timed<double>(const std::vector<double>& a, int threads, int calls);
run_fn run_seq, run_seq_lanes, run_weft, run_weft_configured, run_weft_install, run_tbb,
    run_stdpar, run_omp;
// medium's peers.
inline constexpr auto peers =
    with_peer(standard_peers(&run_seq, &run_weft, &run_tbb, &run_stdpar, &run_omp), 1,
              {"seq8", &run_seq_lanes});
// tiny's: medium's, weft-cfg (the global pool sized by weft::configure_global instead of
// WEFT_NUM_THREADS: within 2 % of weft) and weft-install (each call through
// thread_pool::install: within 2 % of weft).
inline constexpr auto tiny_peers = with_peer(
    with_peer(peers, 3, {"weft-cfg", &run_weft_configured}), 4, {"weft-install", &run_weft_install});

}  // namespace weft_bench::tiny
