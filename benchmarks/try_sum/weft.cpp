// SPDX-License-Identifier: MIT
// try_sum on weft: try_fold(0, checked_add).try_reduce(0, checked_add); weft-red: the same
// per-leaf accumulator written by hand with reduce(identity, fold, combine), which goes on
// to the end after an overflow; weft-map: map(x -> optional).try_reduce(0, checked_add).
#include <weft/weft.hpp>

#include "try_sum/config.hpp"

namespace weft_bench::try_sum {

namespace {
template <class Body>
timed<std::int64_t> in_pool(int threads, int reps, Body body) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return pool.install([&] { return time_calls(reps, body); });
}
}  // namespace

timed<std::int64_t> run_weft(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_pool(threads, reps, [&] {
    return weft::iter(v)
        .try_fold(std::int64_t{0}, checked_add)
        .try_reduce(std::int64_t{0}, checked_add)
        .value_or(-1);
  });
}

timed<std::int64_t> run_weft_reduce(const std::vector<std::int64_t>& v, int threads, int reps) {
  using acc = std::optional<std::int64_t>;
  return in_pool(threads, reps, [&] {
    return weft::iter(v)
        .reduce(acc{0}, [](acc a, std::int64_t x) { return a ? checked_add(*a, x) : a; },
                [](acc a, acc b) { return a && b ? checked_add(*a, *b) : acc{}; })
        .value_or(-1);
  });
}

timed<std::int64_t> run_weft_map(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_pool(threads, reps, [&] {
    return weft::iter(v)
        .map([](std::int64_t x) { return std::optional<std::int64_t>(x); })
        .try_reduce(std::int64_t{0}, checked_add)
        .value_or(-1);
  });
}

}  // namespace weft_bench::try_sum
