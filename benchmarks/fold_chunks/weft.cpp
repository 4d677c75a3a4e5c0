// SPDX-License-Identifier: MIT
// fold_chunks on weft: iter(v).fold_chunks(16, 0, hash_step).sum(); weft-hand: the same
// written with chunks(16).map(fold the run).sum().
#include <weft/weft.hpp>

#include "fold_chunks/config.hpp"
#include "weft_pool.hpp"

namespace weft_bench::fold_chunks {

timed<std::int64_t> run_weft(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_weft_pool(threads, reps, [&] {
    return weft::iter(v).fold_chunks(run_length, std::int64_t{0}, hash_step).sum();
  });
}

timed<std::int64_t> run_weft_hand(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_weft_pool(threads, reps, [&] {
    return weft::iter(v)
        .chunks(run_length)
        .map([](auto run) {
          std::int64_t h = 0;
          for (const std::int64_t x : run) h = hash_step(h, x);
          return h;
        })
        .sum();
  });
}

}  // namespace weft_bench::fold_chunks
