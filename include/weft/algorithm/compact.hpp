// SPDX-License-Identifier: MIT
// Compaction: copy_if, remove_copy(_if), unique_copy, partition_copy, and in place remove(_if),
// unique, partition, stable_partition (the C++17 parallel overloads). All preserve the
// order exactly as the std:: algorithms do. Algorithm: docs/algorithms.md#compaction
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <type_traits>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/checks.hpp"
#include "weft/kernels/compact.hpp"
#include "weft/execution.hpp"

namespace weft {

namespace detail::algo {
template <class In>
constexpr void check_compact_input() {
  static_assert(std::forward_iterator<In>,
                "weft compaction (policy, first, last, ...): first and last must be forward "
                "iterators of the same type");
}
template <class Pred, class In>
constexpr void check_unary_pred() {
  static_assert(std::is_invocable_v<Pred&, std::iter_reference_t<In>>,
                "weft compaction: pred must be callable with an element and return something "
                "convertible to bool");
}

// Stores that may run for elements that are not kept (compact_chunker's Branchless): plain
// memory between contiguous ranges of one trivially copyable type.
template <class In, class Out>
inline constexpr bool plain_store =
    std::contiguous_iterator<In> && std::contiguous_iterator<Out> &&
    std::is_same_v<std::iter_value_t<In>, std::iter_value_t<Out>> &&
    std::is_trivially_copyable_v<std::iter_value_t<In>> &&
    std::is_trivially_copy_assignable_v<std::iter_value_t<In>>;

// Copies the elements i with keep(i) to d_first, in order; returns the end of the output.
template <class In, class Out, class Keep>
Out copy_selected(In first, In last, Out d_first, const Keep& keep) {
  const auto copy = [&](std::size_t i, std::size_t k, bool) {
    *detail::algo::advance(d_first, k) = *detail::algo::advance(first, i);
  };
  const std::size_t kept = compact_pass<std::iter_value_t<In>, false, plain_store<In, Out>>(
      detail::algo::distance(first, last), keep, copy);
  return detail::algo::advance(d_first, kept);
}
}  // namespace detail::algo

/// Copies the elements x of [first, last) with pred(x) true to d_first, keeping their order;
/// returns the end of the output. With a parallel policy and random-access iterators the
/// input is read once, in chunks taken in order by the pool's threads, each chunk's output
/// position found by look-back on its predecessors' counts (docs/protocols/scan.md); else
/// this is std::copy_if. Preconditions: the output does not overlap the input and has room.
/// Exceptions: the first exception from pred or a copy propagates; the output is then
/// partly written. Allocation: one slot per chunk when parallel. O(n) calls of pred.
template <execution_policy Policy, class In, class Out, class Pred>
Out copy_if(Policy&&, In first, In last, Out d_first, Pred pred) {
  detail::algo::check_compact_input<In>();
  detail::algo::check_writes<Out, std::iter_reference_t<In>>();
  detail::algo::check_unary_pred<Pred, In>();
  if constexpr (detail::algo::runs_parallel<Policy, In, Out>) {
    const auto keep = [&](std::size_t i) -> bool {
      return pred(*detail::algo::advance(first, i));
    };
    return detail::algo::copy_selected(first, last, d_first, keep);
  } else {
    return std::copy_if(first, last, d_first, std::move(pred));
  }
}

/// As copy_if with the predicate negated (std::remove_copy_if).
template <execution_policy Policy, class In, class Out, class Pred>
Out remove_copy_if(Policy&& policy, In first, In last, Out d_first, Pred pred) {
  detail::algo::check_compact_input<In>();
  detail::algo::check_unary_pred<Pred, In>();
  return weft::copy_if(std::forward<Policy>(policy), first, last, d_first,
                       [&](auto&& x) -> bool { return !pred(x); });
}

/// Copies the elements not equal to `value` (std::remove_copy).
template <execution_policy Policy, class In, class Out, class T>
Out remove_copy(Policy&& policy, In first, In last, Out d_first, const T& value) {
  detail::algo::check_compact_input<In>();
  return weft::copy_if(std::forward<Policy>(policy), first, last, d_first,
                       [&](auto&& x) -> bool { return !(x == value); });
}

/// Copies the first element of every run of consecutive equivalent elements
/// (std::unique_copy); pred (std::equal_to<> by default) must be an equivalence relation.
template <execution_policy Policy, class In, class Out, class Pred = std::equal_to<>>
Out unique_copy(Policy&&, In first, In last, Out d_first, Pred pred = {}) {
  detail::algo::check_compact_input<In>();
  detail::algo::check_writes<Out, std::iter_reference_t<In>>();
  static_assert(std::is_invocable_v<Pred&, std::iter_reference_t<In>, std::iter_reference_t<In>>,
                "weft::unique_copy: pred must be callable with two elements");
  if constexpr (detail::algo::runs_parallel<Policy, In, Out>) {
    const auto keep = [&](std::size_t i) -> bool {
      return i == 0 || !pred(*detail::algo::advance(first, i - 1),
                             *detail::algo::advance(first, i));
    };
    return detail::algo::copy_selected(first, last, d_first, keep);
  } else {
    return std::unique_copy(first, last, d_first, std::move(pred));
  }
}

/// Copies the elements with pred true to d_true and the others to d_false, each in order;
/// returns the ends of both outputs (std::partition_copy).
template <execution_policy Policy, class In, class OutT, class OutF, class Pred>
std::pair<OutT, OutF> partition_copy(Policy&&, In first, In last, OutT d_true, OutF d_false,
                                     Pred pred) {
  detail::algo::check_compact_input<In>();
  detail::algo::check_writes<OutT, std::iter_reference_t<In>>();
  detail::algo::check_writes<OutF, std::iter_reference_t<In>>();
  detail::algo::check_unary_pred<Pred, In>();
  if constexpr (detail::algo::runs_parallel<Policy, In, OutT, OutF>) {
    const std::size_t n = detail::algo::distance(first, last);
    const auto keep = [&](std::size_t i) -> bool {
      return pred(*detail::algo::advance(first, i));
    };
    const auto copy = [&](std::size_t i, std::size_t k, bool b) {
      if (b)
        *detail::algo::advance(d_true, k) = *detail::algo::advance(first, i);
      else
        *detail::algo::advance(d_false, i - k) = *detail::algo::advance(first, i);
    };
    const std::size_t kept =
        detail::algo::compact_pass<std::iter_value_t<In>, true>(n, keep, copy);
    return {detail::algo::advance(d_true, kept), detail::algo::advance(d_false, n - kept)};
  } else {
    return std::partition_copy(first, last, d_true, d_false, std::move(pred));
  }
}

/// Removes the elements x with pred(x) true, keeping the others' order; returns the new end
/// (std::remove_if). Parallel when the policy is, the iterators are random-access and the
/// element type moves without throwing: pred runs on every element first (an exception
/// from it leaves the range untouched), then the kept elements move through a temporary
/// buffer (allocated before anything moves). Elements past the returned end are valid but
/// unspecified (moved-from). O(n) calls of pred, O(n) moves.
template <execution_policy Policy, class It, class Pred>
It remove_if(Policy&&, It first, It last, Pred pred) {
  detail::algo::check_compact_input<It>();
  detail::algo::check_unary_pred<Pred, It>();
  if constexpr (detail::algo::runs_parallel<Policy, It> &&
                detail::algo::nothrow_relocatable<It>) {
    const auto keep = [&](std::size_t i) -> bool {
      return !pred(*detail::algo::advance(first, i));
    };
    return detail::algo::advance(
        first, detail::algo::partition_in_place<false>(first, detail::algo::distance(first, last),
                                                       keep));
  } else {
    return std::remove_if(first, last, std::move(pred));
  }
}

/// Removes the elements equal to `value` (std::remove); as remove_if otherwise.
template <execution_policy Policy, class It, class T>
It remove(Policy&& policy, It first, It last, const T& value) {
  return weft::remove_if(std::forward<Policy>(policy), first, last,
                         [&](auto&& x) -> bool { return x == value; });
}

/// Removes all but the first element of every run of consecutive equivalent elements
/// (std::unique); as remove_if otherwise.
template <execution_policy Policy, class It, class Pred = std::equal_to<>>
It unique(Policy&&, It first, It last, Pred pred = {}) {
  detail::algo::check_compact_input<It>();
  static_assert(std::is_invocable_v<Pred&, std::iter_reference_t<It>, std::iter_reference_t<It>>,
                "weft::unique: pred must be callable with two elements");
  if constexpr (detail::algo::runs_parallel<Policy, It> &&
                detail::algo::nothrow_relocatable<It>) {
    const auto keep = [&](std::size_t i) -> bool {
      return i == 0 || !pred(*detail::algo::advance(first, i - 1),
                             *detail::algo::advance(first, i));
    };
    return detail::algo::advance(
        first, detail::algo::partition_in_place<false>(first, detail::algo::distance(first, last),
                                                       keep));
  } else {
    return std::unique(first, last, std::move(pred));
  }
}

/// Puts the elements with pred true before the others, each group in its original order;
/// returns the partition point (std::stable_partition). Parallel under the same conditions
/// as remove_if, with the same exception guarantee: an exception from pred leaves the range
/// untouched. Allocation: a buffer of n elements and n flags.
template <execution_policy Policy, class It, class Pred>
It stable_partition(Policy&&, It first, It last, Pred pred) {
  detail::algo::check_compact_input<It>();
  detail::algo::check_unary_pred<Pred, It>();
  if constexpr (detail::algo::runs_parallel<Policy, It> &&
                detail::algo::nothrow_relocatable<It>) {
    const auto keep = [&](std::size_t i) -> bool {
      return pred(*detail::algo::advance(first, i));
    };
    return detail::algo::advance(
        first, detail::algo::partition_in_place<true>(first, detail::algo::distance(first, last),
                                                      keep));
  } else {
    return std::stable_partition(first, last, std::move(pred));
  }
}

/// Puts the elements with pred true before the others; returns the partition point
/// (std::partition). The parallel path is stable_partition's (a stable partition is a
/// partition); other calls run std::partition.
template <execution_policy Policy, class It, class Pred>
It partition(Policy&& policy, It first, It last, Pred pred) {
  detail::algo::check_compact_input<It>();
  detail::algo::check_unary_pred<Pred, It>();
  if constexpr (detail::algo::runs_parallel<Policy, It> &&
                detail::algo::nothrow_relocatable<It>) {
    return weft::stable_partition(std::forward<Policy>(policy), first, last, std::move(pred));
  } else {
    return std::partition(first, last, std::move(pred));
  }
}

}  // namespace weft
