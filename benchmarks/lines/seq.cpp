// SPDX-License-Identifier: MIT
// lines baseline: the whole text as one block.
#include "lines/config.hpp"

namespace weft_bench::lines {

timed<std::size_t> run_seq(const std::string& t, int /*threads*/, int reps) {
  return time_calls(reps, [&] { return line_lengths_from(t, 0, t.size()); });
}

}  // namespace weft_bench::lines
