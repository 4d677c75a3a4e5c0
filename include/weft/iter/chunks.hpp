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

  std::size_t size() const { return (base.size() + chunk - 1) / chunk; }
  auto operator[](std::size_t i) const {
    const std::size_t lo = i * chunk;
    return run_of(base, lo, std::min(base.size(), lo + chunk));
  }
  chunks_producer slice(std::size_t lo, std::size_t hi) const {
    return {base.slice(std::min(base.size(), lo * chunk), std::min(base.size(), hi * chunk)),
            chunk};
  }
};

template <indexed_node Base>
class chunks_node {
 public:
  static constexpr bool indexed = true;

  chunks_node(Base base, std::size_t chunk) : base_(std::move(base)), chunk_(chunk) {}
  std::size_t size() { return (base_.size() + chunk_ - 1) / chunk_; }
  auto producer() { return chunks_producer<decltype(base_.producer())>{base_.producer(), chunk_}; }
  using item_type = plumbing::item_t<
      chunks_producer<decltype(std::declval<Base&>().producer())>>;

 private:
  Base base_;
  std::size_t chunk_;
};

// Window i is items [i, i + width); a slice of windows [lo, hi) is a slice of items
// [lo, hi + width - 1).
template <class P>
struct windows_producer {
  P base;
  std::size_t width;

  std::size_t size() const { return base.size() >= width ? base.size() - width + 1 : 0; }
  auto operator[](std::size_t i) const { return run_of(base, i, i + width); }
  windows_producer slice(std::size_t lo, std::size_t hi) const {
    return {hi > lo ? base.slice(lo, hi + width - 1) : base.slice(0, 0), width};
  }
};

template <indexed_node Base>
class windows_node {
 public:
  static constexpr bool indexed = true;

  windows_node(Base base, std::size_t width) : base_(std::move(base)), width_(width) {}
  std::size_t size() { return base_.size() >= width_ ? base_.size() - width_ + 1 : 0; }
  auto producer() { return windows_producer<decltype(base_.producer())>{base_.producer(), width_}; }
  using item_type = plumbing::item_t<
      windows_producer<decltype(std::declval<Base&>().producer())>>;

 private:
  Base base_;
  std::size_t width_;
};

}  // namespace weft::detail
