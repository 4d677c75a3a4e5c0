// SPDX-License-Identifier: MIT
// The algorithms' door to the splitting engine: which calls run on the pool (the policy and
// the iterators decide), and the block engine (plumbing/blocks.hpp) with the output blocks
// (output_blocks.hpp). No algorithm picks its own grain: plumbing::bridge decides whether
// to go parallel at all, where to cut and how long a block is.
#pragma once

#include <atomic>
#include <cstddef>
#include <iterator>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/kernels/output_blocks.hpp"
#include "weft/execution.hpp"
#include "weft/plumbing/blocks.hpp"
#include "weft/plumbing/range_producers.hpp"

namespace weft::detail::algo {

// Whether a call that only reads through its iterators runs on the pool: a parallel policy
// and random-access iterators. Weaker iterators run the sequential std:: algorithm, as the
// standard allows. Packed bits (mutable std::vector<bool> iterators) qualify: reading the
// words they share from many threads is no race.
template <class Policy, class... It>
inline constexpr bool reads_parallel =
    is_parallel_policy_v<Policy> && (std::random_access_iterator<It> && ...);

// Whether a call that may write through its iterators runs on the pool: as reads_parallel,
// but mutable std::vector<bool> iterators run sequentially, since two threads writing two
// elements of one word race (writes_packed_bits).
template <class Policy, class... It>
inline constexpr bool runs_parallel =
    reads_parallel<Policy, It...> && (!writes_packed_bits<It> && ...);

template <class It>
It advance(It it, std::size_t i) {
  return it + static_cast<std::iter_difference_t<It>>(i);
}

template <class It>
std::size_t distance(It first, It last) {
  return static_cast<std::size_t>(last - first);
}

// Whether the output starts where the input does (in place); true when it cannot tell.
template <class In, class Out>
bool same_position(In first, Out d_first) {
  if constexpr (std::contiguous_iterator<In> && std::contiguous_iterator<Out>)
    return static_cast<const volatile void*>(std::to_address(first)) ==
           static_cast<const volatile void*>(std::to_address(d_first));
  else if constexpr (std::is_same_v<In, Out>)
    return first == d_first;
  else
    return true;
}

}  // namespace weft::detail::algo
