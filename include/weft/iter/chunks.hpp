// SPDX-License-Identifier: MIT
// chunks(n): consecutive runs of n items (the last may be shorter); windows(n): every run of
// n adjacent items, overlapping (Rayon's par_windows). Indexed only.
// A run of a contiguous source is a std::span of its elements (mutable when the source is),
// which clang 14 compiles with libstdc++ 12 where it cannot compile std::ranges::subrange;
// a run of another random-access source is a std::ranges::subrange of its iterators; a run
// of a pipeline's items (after map, zip, ...) is a random-access range over them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>

#include "weft/iter/node.hpp"
#include "weft/iter/source.hpp"

namespace weft::detail {

// Whether a value of type T is, or holds in a pair, a run as run_of makes it.
template <class T>
constexpr bool is_run_view = false;
template <class T, std::size_t E>
constexpr bool is_run_view<std::span<T, E>> = true;
template <class I, class S, std::ranges::subrange_kind K>
constexpr bool is_run_view<std::ranges::subrange<I, S, K>> = true;
template <class P>
constexpr bool is_run_view<plumbing::producer_range<P>> = true;
template <class A, class B>
constexpr bool is_run_view<std::pair<A, B>> = is_run_view<A> || is_run_view<B>;

// Items [lo, hi) of producer p as one range.
template <class P>
auto run_of(const P& p, std::size_t lo, std::size_t hi) {
  if constexpr (requires { p.begin_at(lo); }) {
    using iterator = decltype(p.begin_at(lo));
    if constexpr (std::is_pointer_v<iterator>)
      return std::span<std::remove_pointer_t<iterator>>(p.begin_at(lo), hi - lo);
    else
      return std::ranges::subrange(p.begin_at(lo), p.begin_at(hi));
  } else {
    return plumbing::producer_range<P>(p.slice(lo, hi));
  }
}

template <class P>
struct chunks_producer {
  P base;
  std::size_t chunk;

  static std::size_t count(std::size_t items, std::size_t chunk) {
    return runs_covering(items, chunk);
  }
  std::size_t size() const { return count(base.size(), chunk); }
  auto operator[](std::size_t i) const {
    const std::size_t n = base.size();
    const std::size_t lo = i * chunk;  // i < size(): lo < n
    return run_of(base, lo, lo + std::min(chunk, n - lo));
  }
  chunks_producer slice(std::size_t lo, std::size_t hi) const {
    const std::size_t n = base.size();
    return {base.slice(run_start_capped(lo, chunk, n), run_start_capped(hi, chunk, n)), chunk};
  }
};

// Window i is items [i, i + width); a slice of windows [lo, hi) is a slice of items
// [lo, hi + width - 1).
template <class P>
struct windows_producer {
  P base;
  std::size_t width;

  static std::size_t count(std::size_t items, std::size_t width) {
    return items >= width ? items - width + 1 : 0;
  }
  std::size_t size() const { return count(base.size(), width); }
  auto operator[](std::size_t i) const { return run_of(base, i, i + width); }
  windows_producer slice(std::size_t lo, std::size_t hi) const {
    return {hi > lo ? base.slice(lo, hi + width - 1) : base.slice(0, 0), width};
  }
};

// The node of chunks(n) (Runs = chunks_producer) or windows(n) (windows_producer).
template <template <class> class Runs, indexed_node Base>
class runs_node {
  using runs = Runs<decltype(std::declval<Base&>().producer())>;

 public:
  static constexpr bool indexed = true;
  using item_type = plumbing::item_t<runs>;
  // A run views the base's items through the base's producer: where that points into the
  // pipeline (a range moved in, a map's callable), the runs are only valid while it lives.
  static constexpr bool producer_borrows_only = detail::producer_borrows_only<Base>;
  static constexpr bool makes_owned_views =
      !detail::producer_borrows_only<Base> || detail::makes_owned_views<Base>;

  runs_node(Base base, std::size_t n) : base_(std::move(base)), n_(n) {}
  std::size_t size() { return runs::count(base_.size(), n_); }
  runs producer() { return {base_.producer(), n_}; }

 private:
  Base base_;
  std::size_t n_;
};

}  // namespace weft::detail
