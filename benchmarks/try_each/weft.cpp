// SPDX-License-Identifier: MIT
// try_each on weft: enumerate().try_for_each(check) returning the failing position in a
// std::optional's place (a try type of its own); weft-find: the same search written by hand,
// map(check).find_first(failed); weft-pos: position_first(!valid), which may test up to 15
// items past the failure (a test with no side effects).
#include <weft/weft.hpp>

#include <utility>

#include "try_each/config.hpp"
#include "weft_pool.hpp"

namespace weft_bench::try_each {

// What the check returns: fine, or the position that failed.
struct verdict {
  std::size_t failed_at = static_cast<std::size_t>(-1);
};

}  // namespace weft_bench::try_each

template <>
struct weft::try_traits<weft_bench::try_each::verdict> {
  using output_type = std::monostate;
  static bool is_success(const weft_bench::try_each::verdict& r) {
    return r.failed_at == static_cast<std::size_t>(-1);
  }
  static std::monostate output(weft_bench::try_each::verdict&&) { return {}; }
  static weft_bench::try_each::verdict from_output(std::monostate&&) { return {}; }
};

namespace weft_bench::try_each {

namespace {
constexpr auto check = [](std::pair<std::size_t, std::int64_t> p) {
  return valid(p.second) ? verdict{} : verdict{p.first};
};
}  // namespace

timed<std::size_t> run_weft(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_weft_pool(threads, reps, [&] {
    const verdict r = weft::iter(v).enumerate().try_for_each(check);
    return std::min(r.failed_at, v.size());
  });
}

timed<std::size_t> run_weft_find(const std::vector<std::int64_t>& v, int threads, int reps) {
  return in_weft_pool(threads, reps, [&] {
    const auto hit = weft::iter(v).enumerate().map(check).find_first(
        [](const verdict& r) { return r.failed_at != static_cast<std::size_t>(-1); });
    return hit ? hit->failed_at : v.size();
  });
}

timed<std::size_t> run_weft_position(const std::vector<std::int64_t>& v, int threads,
                                     int reps) {
  return in_weft_pool(threads, reps, [&] {
    return weft::iter(v).position_first([](std::int64_t x) { return !valid(x); }).value_or(v.size());
  });
}

}  // namespace weft_bench::try_each
