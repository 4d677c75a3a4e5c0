// SPDX-License-Identifier: MIT
// tiny on weft: iter(a).map(square).sum() from main, outside any install (the global pool).
#include <weft/weft.hpp>

#include "tiny/config.hpp"

namespace weft_bench::tiny {

timed<double> run_weft(const std::vector<double>& a, int /*threads*/, int calls) {
  return time_batches(calls, [&] { return weft::iter(a).map(square).sum(); });
}

}  // namespace weft_bench::tiny
