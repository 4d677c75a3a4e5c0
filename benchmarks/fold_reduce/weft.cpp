// SPDX-License-Identifier: MIT
// fold_reduce on weft: fold(0, add_square).reduce(0, plus) (weft) against
// reduce(0, add_square, plus) (weft-red); map(square).reduce_with(plus) (weft-rw) against
// map(square).reduce(0, plus) (weft-map).
#include <weft/weft.hpp>

#include "fold_reduce/config.hpp"
#include "weft_pool.hpp"

namespace weft_bench::fold_reduce {

timed<std::int64_t> run_weft(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_weft_pool(threads, reps, [&] {
    return weft::iter(v).fold(std::int64_t{0}, add_square).reduce(std::int64_t{0}, plus);
  });
}

timed<std::int64_t> run_weft_reduce(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_weft_pool(threads, reps,
                 [&] { return weft::iter(v).reduce(std::int64_t{0}, add_square, plus); });
}

timed<std::int64_t> run_weft_reduce_with(const std::vector<std::int64_t>& v, int threads,
                                         int reps) {
  return in_weft_pool(threads, reps,
                 [&] { return weft::iter(v).map(square).reduce_with(plus).value_or(0); });
}

timed<std::int64_t> run_weft_map_reduce(const std::vector<std::int64_t>& v, int threads,
                                        int reps) {
  return in_weft_pool(threads, reps,
                 [&] { return weft::iter(v).map(square).reduce(std::int64_t{0}, plus); });
}

}  // namespace weft_bench::fold_reduce
