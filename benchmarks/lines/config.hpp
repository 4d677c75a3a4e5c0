// SPDX-License-Identifier: MIT
// lines: the lengths of a text's lines summed (weft::str(text).lines().map(size).sum()) over
// a 1 GB text of lines of 1 to 120 bytes: a pass at memory bandwidth, against the same split
// written by hand at block boundaries (weft-hand, oneTBB, OpenMP). Size, input, peers.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include "common.hpp"

#ifdef WEFT_BENCH_HAVE_TBB
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <functional>
#endif

namespace weft_bench::lines {

inline constexpr std::size_t default_n = 1'000'000'000;
inline constexpr std::size_t quick_n = 20'000'000;

// n bytes: lines of 1 to 120 letters (a length-mixing sequence, cheap to make), each ended
// by '\n', every 16th by "\r\n".
inline std::string make_input(std::size_t n) {
  std::string t(n, 'a');
  std::size_t line = 0;
  for (std::size_t i = 0; i < n;) {
    const std::size_t len = 1 + (line * 2654435761u >> 7) % 120;
    i += len;
    if (line % 16 == 0 && i + 1 < n) t[i++] = '\r';
    if (i < n) t[i++] = '\n';
    ++line;
  }
  return t;
}

// The lengths (without "\n" or "\r\n") of the lines that start in [lo, hi) of t, summed: the
// hand-written split. A line starts at 0 or after a '\n', and is read to its end even past hi.
inline std::size_t line_lengths_from(std::string_view t, std::size_t lo, std::size_t hi) {
  const char* d = t.data();
  std::size_t p = lo;
  if (lo != 0) {
    const void* nl = std::memchr(d + lo - 1, '\n', hi - lo);
    if (!nl) return 0;
    p = static_cast<std::size_t>(static_cast<const char*>(nl) - d) + 1;
  }
  std::size_t total = 0;
  while (p < hi) {
    const void* nl = std::memchr(d + p, '\n', t.size() - p);
    const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - d) : t.size();
    total += end - p - (end > p && d[end - 1] == '\r');
    p = end + 1;
  }
  return total;
}

#ifdef WEFT_BENCH_HAVE_TBB
// parallel_reduce over blocks of 64 KiB; the caller caps the threads.
inline std::size_t lines_tbb(std::string_view t) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, t.size(), std::size_t{1} << 16), std::size_t{0},
      [&](const tbb::blocked_range<std::size_t>& r, std::size_t acc) {
        return acc + line_lengths_from(t, r.begin(), r.end());
      },
      std::plus<>{});
}
#endif

using run_fn = timed<std::size_t>(const std::string& t, int threads, int reps);
run_fn run_seq, run_weft, run_weft_hand, run_tbb, run_omp;
inline constexpr std::array<peer<run_fn>, 5> peers{{{"seq", &run_seq},
                                                     {"weft", &run_weft},
                                                     {"weft-hand", &run_weft_hand},
                                                     {"tbb", WEFT_BENCH_IF_TBB(&run_tbb)},
                                                     {"omp", WEFT_BENCH_IF_OMP(&run_omp)}}};

}  // namespace weft_bench::lines
