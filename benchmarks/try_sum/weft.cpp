// SPDX-License-Identifier: MIT
// try_sum on weft: try_fold(0, checked_add).try_reduce(0, checked_add); weft-red: the same
// per-leaf accumulator written by hand with reduce(identity, fold, combine), a sum and an
// overflow flag, which goes on to the end after an overflow; weft-map:
// map(x -> optional).try_reduce(0, checked_add).
#include <weft/weft.hpp>

#include "try_sum/config.hpp"
#include "weft_pool.hpp"

namespace weft_bench::try_sum {

timed<std::int64_t> run_weft(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_weft_pool(threads, reps, [&] {
    return weft::iter(v)
        .try_fold(std::int64_t{0}, checked_add)
        .try_reduce(std::int64_t{0}, checked_add)
        .value_or(-1);
  });
}

timed<std::int64_t> run_weft_reduce(const std::vector<std::int64_t>& v, int threads, int reps) {
  struct checked {
    std::int64_t sum;
    bool overflow;
  };
  return in_weft_pool(threads, reps, [&] {
    const checked r = weft::iter(v).reduce(
        checked{0, false},
        [](checked a, std::int64_t x) {
          a.overflow |= __builtin_add_overflow(a.sum, x, &a.sum);
          return a;
        },
        [](checked a, checked b) {
          a.overflow |= b.overflow || __builtin_add_overflow(a.sum, b.sum, &a.sum);
          return a;
        });
    return r.overflow ? std::int64_t{-1} : r.sum;
  });
}

timed<std::int64_t> run_weft_map(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_weft_pool(threads, reps, [&] {
    return weft::iter(v)
        .map([](std::int64_t x) { return std::optional<std::int64_t>(x); })
        .try_reduce(std::int64_t{0}, checked_add)
        .value_or(-1);
  });
}

}  // namespace weft_bench::try_sum
