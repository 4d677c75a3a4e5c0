// SPDX-License-Identifier: MIT
// par_bridge on oneTBB: parallel_pipeline, a serial input filter reading the generator and a
// parallel filter doing the work, the results summed per thread.
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_pipeline.h>

#include "par_bridge/config.hpp"

namespace weft_bench::par_bridge {

timed<std::uint64_t> run_tbb(const std::size_t& n, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] {
    counter source{0, n};
    tbb::enumerable_thread_specific<std::uint64_t> sums(0);
    tbb::parallel_pipeline(
        static_cast<std::size_t>(4 * threads),
        tbb::make_filter<void, std::uint64_t>(tbb::filter_mode::serial_in_order,
                                              [&](tbb::flow_control& fc) {
                                                const auto x = source();
                                                if (!x) fc.stop();
                                                return x.value_or(0);
                                              }) &
            tbb::make_filter<std::uint64_t, void>(
                tbb::filter_mode::parallel, [&](std::uint64_t x) { sums.local() += work(x); }));
    return sums.combine([](std::uint64_t a, std::uint64_t b) { return a + b; });
  });
}

}  // namespace weft_bench::par_bridge
