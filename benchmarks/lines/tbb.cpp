// SPDX-License-Identifier: MIT
// lines on oneTBB: parallel_reduce over 64 KiB blocks of the text.
#include <oneapi/tbb/global_control.h>

#include "lines/config.hpp"

namespace weft_bench::lines {

timed<std::size_t> run_tbb(const std::string& t, int threads, int reps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(threads));
  return time_calls(reps, [&] { return lines_tbb(t); });
}

}  // namespace weft_bench::lines
