// SPDX-License-Identifier: MIT
// Uninitialized memory: uninitialized_copy, uninitialized_copy_n, uninitialized_move,
// uninitialized_move_n, uninitialized_fill, uninitialized_fill_n,
// uninitialized_default_construct(_n), uninitialized_value_construct(_n), destroy, destroy_n.
//
// The constructing algorithms keep std::'s all-or-nothing guarantee in parallel: if a
// constructor throws, every object already constructed, by any block, is destroyed before
// the exception reaches the caller. A block that throws undoes itself (it runs the std::
// algorithm, which does); blocks that finished record their range (a short list under a
// mutex, one entry per finished block); the caller destroys those ranges. For trivially
// destructible types there is nothing to undo and nothing is recorded; an output of 16 MiB
// or more of a trivial type is then written with streaming stores, a line at a time.
// Allocation: that list, for non-trivially-destructible types only (its std::bad_alloc is
// handled like a constructor's exception).
// Complexity: O(n) constructions or destructions. Constructors run on several threads at
// once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/checks.hpp"
#include "weft/execution.hpp"

namespace weft {
namespace detail::algo {

// Runs construct(lo, hi, d) over blocks of [0, n) of the output at `out`, where d is the
// block's first output position; on an exception, destroys what the finished blocks built,
// then rethrows. With nothing to undo (trivially destructible objects) this is
// for_output_blocks: a large output of a trivial type is built a line at a time in a line
// buffer (d is then a T*) and streamed where its call site found that faster, as copy and
// fill write theirs.
template <class Out, class Construct>
void construct_blocks(Out out, std::size_t n, const Construct& construct) {
  using T = std::iter_value_t<Out>;
  if constexpr (std::is_trivially_destructible_v<T>) {
    for_output_blocks(out, n, false, construct);
  } else {
    std::mutex m;
    std::vector<std::pair<std::size_t, std::size_t>> built;
    try {
      for_blocks(n, [&](std::size_t lo, std::size_t hi) {
        construct(lo, hi, algo::advance(out, lo));
        try {
          const std::lock_guard lock(m);
          built.emplace_back(lo, hi);
        } catch (...) {
          std::destroy(algo::advance(out, lo), algo::advance(out, hi));
          throw;
        }
      });
    } catch (...) {
      for (const auto& [lo, hi] : built) std::destroy(algo::advance(out, lo), algo::advance(out, hi));
      throw;
    }
  }
}

}  // namespace detail::algo

/// Copy-constructs the elements of [first, last) into the uninitialized memory at d_first;
/// returns the output's end. If a constructor throws, nothing is left constructed.
template <execution_policy Policy, class It, class Out>
Out uninitialized_copy(Policy&&, It first, It last, Out d_first) {
  detail::algo::check_forward<It>();
  detail::algo::check_output<Out>();
  if constexpr (detail::algo::runs_parallel<Policy, It, Out>) {
    const std::size_t n = detail::algo::distance(first, last);
    detail::algo::construct_blocks(d_first, n, [&](std::size_t lo, std::size_t hi, auto d) {
      std::uninitialized_copy(detail::algo::advance(first, lo), detail::algo::advance(first, hi),
                              d);
    });
    return detail::algo::advance(d_first, n);
  } else {
    return std::uninitialized_copy(first, last, d_first);
  }
}

/// uninitialized_copy of the first `count` elements.
template <execution_policy Policy, class It, class Size, class Out>
Out uninitialized_copy_n(Policy&& policy, It first, Size count, Out d_first) {
  detail::algo::check_forward<It>();
  if (count <= Size(0)) return d_first;
  return weft::uninitialized_copy(std::forward<Policy>(policy), first,
                                  std::next(first, static_cast<std::iter_difference_t<It>>(count)),
                                  d_first);
}

/// Move-constructs the elements of [first, last) into the uninitialized memory at d_first.
/// If a constructor throws, nothing is left constructed (moved-from sources stay so).
template <execution_policy Policy, class It, class Out>
Out uninitialized_move(Policy&&, It first, It last, Out d_first) {
  detail::algo::check_forward<It>();
  detail::algo::check_output<Out>();
  if constexpr (detail::algo::runs_parallel<Policy, It, Out>) {
    const std::size_t n = detail::algo::distance(first, last);
    detail::algo::construct_blocks(d_first, n, [&](std::size_t lo, std::size_t hi, auto d) {
      std::uninitialized_move(detail::algo::advance(first, lo), detail::algo::advance(first, hi),
                              d);
    });
    return detail::algo::advance(d_first, n);
  } else {
    return std::uninitialized_move(first, last, d_first);
  }
}

/// uninitialized_move of the first `count` elements; returns {first + count, output end}.
template <execution_policy Policy, class It, class Size, class Out>
std::pair<It, Out> uninitialized_move_n(Policy&& policy, It first, Size count, Out d_first) {
  detail::algo::check_forward<It>();
  if (count <= Size(0)) return {first, d_first};
  const It last = std::next(first, static_cast<std::iter_difference_t<It>>(count));
  return {last, weft::uninitialized_move(std::forward<Policy>(policy), first, last, d_first)};
}

/// Copy-constructs `value` into every position of the uninitialized [first, last).
template <execution_policy Policy, class It, class T>
void uninitialized_fill(Policy&&, It first, It last, const T& value) {
  detail::algo::check_forward<It>();
  if constexpr (detail::algo::runs_parallel<Policy, It>)
    detail::algo::construct_blocks(first, detail::algo::distance(first, last),
                                   [&](std::size_t lo, std::size_t hi, auto d) {
                                     std::uninitialized_fill_n(d, hi - lo, value);
                                   });
  else
    std::uninitialized_fill(first, last, value);
}

/// uninitialized_fill of the first `count` positions; returns first + count.
template <execution_policy Policy, class It, class Size, class T>
It uninitialized_fill_n(Policy&& policy, It first, Size count, const T& value) {
  detail::algo::check_forward<It>();
  if (count <= Size(0)) return first;
  const It last = std::next(first, static_cast<std::iter_difference_t<It>>(count));
  weft::uninitialized_fill(std::forward<Policy>(policy), first, last, value);
  return last;
}

/// Default-initialises objects in the uninitialized [first, last).
template <execution_policy Policy, class It>
void uninitialized_default_construct(Policy&&, It first, It last) {
  detail::algo::check_forward<It>();
  if constexpr (detail::algo::runs_parallel<Policy, It> &&
                !std::is_trivially_default_constructible_v<std::iter_value_t<It>>)
    detail::algo::construct_blocks(first, detail::algo::distance(first, last),
                                   [&](std::size_t lo, std::size_t hi, auto d) {
                                     std::uninitialized_default_construct_n(d, hi - lo);
                                   });
  else
    std::uninitialized_default_construct(first, last);  // trivial: no code at all
}

/// uninitialized_default_construct of the first `count` positions; returns first + count.
template <execution_policy Policy, class It, class Size>
It uninitialized_default_construct_n(Policy&& policy, It first, Size count) {
  detail::algo::check_forward<It>();
  if (count <= Size(0)) return first;
  const It last = std::next(first, static_cast<std::iter_difference_t<It>>(count));
  weft::uninitialized_default_construct(std::forward<Policy>(policy), first, last);
  return last;
}

/// Value-initialises objects in the uninitialized [first, last).
template <execution_policy Policy, class It>
void uninitialized_value_construct(Policy&&, It first, It last) {
  detail::algo::check_forward<It>();
  if constexpr (detail::algo::runs_parallel<Policy, It>)
    detail::algo::construct_blocks(first, detail::algo::distance(first, last),
                                   [&](std::size_t lo, std::size_t hi, auto d) {
                                     std::uninitialized_value_construct_n(d, hi - lo);
                                   });
  else
    std::uninitialized_value_construct(first, last);
}

/// uninitialized_value_construct of the first `count` positions; returns first + count.
template <execution_policy Policy, class It, class Size>
It uninitialized_value_construct_n(Policy&& policy, It first, Size count) {
  detail::algo::check_forward<It>();
  if (count <= Size(0)) return first;
  const It last = std::next(first, static_cast<std::iter_difference_t<It>>(count));
  weft::uninitialized_value_construct(std::forward<Policy>(policy), first, last);
  return last;
}

/// Destroys the objects of [first, last). Destructors must not throw.
template <execution_policy Policy, class It>
void destroy(Policy&&, It first, It last) {
  detail::algo::check_forward<It>();
  if constexpr (detail::algo::runs_parallel<Policy, It> &&
                !std::is_trivially_destructible_v<std::iter_value_t<It>>)
    detail::algo::for_blocks(detail::algo::distance(first, last),
                             [&](std::size_t lo, std::size_t hi) {
                               std::destroy(detail::algo::advance(first, lo),
                                            detail::algo::advance(first, hi));
                             });
  else
    std::destroy(first, last);
}

/// Destroys the first `count` objects at first; returns first + count.
template <execution_policy Policy, class It, class Size>
It destroy_n(Policy&& policy, It first, Size count) {
  detail::algo::check_forward<It>();
  if (count <= Size(0)) return first;
  const It last = std::next(first, static_cast<std::iter_difference_t<It>>(count));
  weft::destroy(std::forward<Policy>(policy), first, last);
  return last;
}

}  // namespace weft
