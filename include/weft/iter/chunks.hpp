// SPDX-License-Identifier: MIT
// chunks(n): consecutive runs of n items (the last may be shorter). Indexed only.
// A chunk of a contiguous source is a std::span of its elements (mutable when the source is),
// which clang 14 compiles with libstdc++ 12 where it cannot compile std::ranges::subrange;
// a chunk of another random-access source is a std::ranges::subrange of its iterators; a
// chunk of a pipeline's items (after map, zip, ...) is a random-access range over them.
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

template <class P>
struct chunks_producer {
  P base;
  std::size_t chunk;

  std::size_t size() const { return (base.size() + chunk - 1) / chunk; }
  auto operator[](std::size_t i) const {
    const std::size_t lo = i * chunk;
    const std::size_t hi = std::min(base.size(), lo + chunk);
    if constexpr (requires { base.begin_at(lo); }) {
      using iterator = decltype(base.begin_at(lo));
      if constexpr (std::is_pointer_v<iterator>)
        return std::span<std::remove_pointer_t<iterator>>(base.begin_at(lo), hi - lo);
      else
        return std::ranges::subrange(base.begin_at(lo), base.begin_at(hi));
    } else {
      return plumbing::producer_range<P>(base.slice(lo, hi));
    }
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

}  // namespace weft::detail
