// SPDX-License-Identifier: MIT
// Prefix sums: inclusive_scan, exclusive_scan, transform_inclusive_scan,
// transform_exclusive_scan, adjacent_difference (the C++17 parallel overloads), and the range
// overloads weft::inclusive_scan(in, out[, op]). Algorithm: docs/algorithms.md#scans
#pragma once

#include <concepts>
#include <functional>
#include <iterator>
#include <numeric>
#include <optional>
#include <ranges>
#include <type_traits>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/checks.hpp"
#include "weft/kernels/scan.hpp"
#include "weft/execution.hpp"

namespace weft {

namespace detail::algo {
// The parallel kernel copies partial sums between chunks: a move-only accumulator runs the
// sequential std:: algorithm.
template <class Policy, class In, class Out, class T>
inline constexpr bool scan_runs_parallel =
    runs_parallel<Policy, In, Out> && std::copy_constructible<T>;

template <class In, class Out>
constexpr void check_scan_iterators() {
  static_assert(std::forward_iterator<In>,
                "weft scans (policy, first, last, d_first, ...): first and last must be forward "
                "iterators of the same type");
  static_assert(std::forward_iterator<Out>,
                "weft scans (policy, first, last, d_first, ...): d_first must be a forward "
                "iterator");
}

template <class Op, class T, class X, class Out>
constexpr void check_scan_op() {
  static_assert(std::is_invocable_v<Op&, T, T> && std::is_invocable_v<Op&, T, X>,
                "weft scans: op must be callable as op(acc, acc) and op(acc, element), "
                "returning the accumulator type");
  check_writes<Out, T&>();
}
}  // namespace detail::algo

/// d_first[i] = first[0] op first[1] op ... op first[i] for every i, op = std::plus<> unless
/// given, starting from `init` when given. With a parallel policy, random-access iterators
/// and a copyable accumulator, the input is read from memory once, in chunks taken in order
/// by the pool's threads (docs/protocols/scan.md); otherwise this is std::inclusive_scan.
/// Preconditions: op associative (need not be commutative); [d_first, d_first + n) does not
/// overlap the input unless d_first == first (in place). Floating-point sums may differ from
/// the sequential ones by reassociation. Exceptions: the first exception from op propagates;
/// the output is then partly written. Allocation: one slot per 64 KiB chunk when parallel.
/// Complexity: O(n) applications of op (at most about 2n). Returns d_first + n.
template <execution_policy Policy, class In, class Out, class Op, class T>
Out inclusive_scan(Policy&&, In first, In last, Out d_first, Op op, T init) {
  detail::algo::check_scan_iterators<In, Out>();
  detail::algo::check_scan_op<Op, T, std::iter_reference_t<In>, Out>();
  if constexpr (detail::algo::scan_runs_parallel<Policy, In, Out, T>) {
    detail::algo::identity_fn id;
    return detail::algo::scan_kernel<T, false>(first, last, d_first, op, id,
                                               std::optional<T>(std::move(init)));
  } else {
    return std::inclusive_scan(first, last, d_first, std::move(op), std::move(init));
  }
}

/// As above, without init: the accumulator type is the input's value type.
template <execution_policy Policy, class In, class Out, class Op>
Out inclusive_scan(Policy&&, In first, In last, Out d_first, Op op) {
  detail::algo::check_scan_iterators<In, Out>();
  using T = std::iter_value_t<In>;
  detail::algo::check_scan_op<Op, T, std::iter_reference_t<In>, Out>();
  if constexpr (detail::algo::scan_runs_parallel<Policy, In, Out, T>) {
    detail::algo::identity_fn id;
    return detail::algo::scan_kernel<T, false>(first, last, d_first, op, id, std::optional<T>());
  } else {
    return std::inclusive_scan(first, last, d_first, std::move(op));
  }
}

/// As above with op = std::plus<>.
template <execution_policy Policy, class In, class Out>
Out inclusive_scan(Policy&& policy, In first, In last, Out d_first) {
  return weft::inclusive_scan(std::forward<Policy>(policy), first, last, d_first, std::plus<>{});
}

/// d_first[i] = init op first[0] op ... op first[i - 1] (d_first[0] = init): as
/// inclusive_scan, shifted by one. Same preconditions, guarantees and fallbacks.
template <execution_policy Policy, class In, class Out, class T, class Op>
Out exclusive_scan(Policy&&, In first, In last, Out d_first, T init, Op op) {
  detail::algo::check_scan_iterators<In, Out>();
  detail::algo::check_scan_op<Op, T, std::iter_reference_t<In>, Out>();
  if constexpr (detail::algo::scan_runs_parallel<Policy, In, Out, T>) {
    detail::algo::identity_fn id;
    return detail::algo::scan_kernel<T, true>(first, last, d_first, op, id,
                                              std::optional<T>(std::move(init)));
  } else {
    return std::exclusive_scan(first, last, d_first, std::move(init), std::move(op));
  }
}

/// As above with op = std::plus<>.
template <execution_policy Policy, class In, class Out, class T>
Out exclusive_scan(Policy&& policy, In first, In last, Out d_first, T init) {
  return weft::exclusive_scan(std::forward<Policy>(policy), first, last, d_first,
                              std::move(init), std::plus<>{});
}

/// inclusive_scan of unary(x) for each element x. unary may be called twice per element
/// (once to reduce a chunk, once to write it); it must not modify its argument.
template <execution_policy Policy, class In, class Out, class Op, class Un, class T>
Out transform_inclusive_scan(Policy&&, In first, In last, Out d_first, Op op, Un unary, T init) {
  detail::algo::check_scan_iterators<In, Out>();
  static_assert(std::is_invocable_v<Un&, std::iter_reference_t<In>>,
                "weft::transform_inclusive_scan: unary must be callable with an element");
  using X = std::invoke_result_t<Un&, std::iter_reference_t<In>>;
  detail::algo::check_scan_op<Op, T, X, Out>();
  if constexpr (detail::algo::scan_runs_parallel<Policy, In, Out, T>) {
    return detail::algo::scan_kernel<T, false>(first, last, d_first, op, unary,
                                               std::optional<T>(std::move(init)));
  } else {
    return std::transform_inclusive_scan(first, last, d_first, std::move(op), std::move(unary),
                                         std::move(init));
  }
}

/// As above without init: the accumulator type is that of unary(element), decayed.
template <execution_policy Policy, class In, class Out, class Op, class Un>
Out transform_inclusive_scan(Policy&&, In first, In last, Out d_first, Op op, Un unary) {
  detail::algo::check_scan_iterators<In, Out>();
  static_assert(std::is_invocable_v<Un&, std::iter_reference_t<In>>,
                "weft::transform_inclusive_scan: unary must be callable with an element");
  using X = std::invoke_result_t<Un&, std::iter_reference_t<In>>;
  using T = std::decay_t<X>;
  detail::algo::check_scan_op<Op, T, X, Out>();
  if constexpr (detail::algo::scan_runs_parallel<Policy, In, Out, T>) {
    return detail::algo::scan_kernel<T, false>(first, last, d_first, op, unary,
                                               std::optional<T>());
  } else {
    return std::transform_inclusive_scan(first, last, d_first, std::move(op), std::move(unary));
  }
}

/// exclusive_scan of unary(x) for each element x; unary as in transform_inclusive_scan.
template <execution_policy Policy, class In, class Out, class T, class Op, class Un>
Out transform_exclusive_scan(Policy&&, In first, In last, Out d_first, T init, Op op, Un unary) {
  detail::algo::check_scan_iterators<In, Out>();
  static_assert(std::is_invocable_v<Un&, std::iter_reference_t<In>>,
                "weft::transform_exclusive_scan: unary must be callable with an element");
  using X = std::invoke_result_t<Un&, std::iter_reference_t<In>>;
  detail::algo::check_scan_op<Op, T, X, Out>();
  if constexpr (detail::algo::scan_runs_parallel<Policy, In, Out, T>) {
    return detail::algo::scan_kernel<T, true>(first, last, d_first, op, unary,
                                              std::optional<T>(std::move(init)));
  } else {
    return std::transform_exclusive_scan(first, last, d_first, std::move(init), std::move(op),
                                         std::move(unary));
  }
}

/// d_first[0] = first[0], d_first[i] = op(first[i], first[i - 1]) (op = std::minus<> unless
/// given). An element-wise pass over the engine's blocks with a parallel policy and
/// random-access iterators; else std::adjacent_difference. Preconditions: the output does
/// not overlap the input. Exceptions: the first from op propagates. No allocation. Returns
/// d_first + n.
template <execution_policy Policy, class In, class Out, class Op = std::minus<>>
Out adjacent_difference(Policy&&, In first, In last, Out d_first, Op op = {}) {
  detail::algo::check_scan_iterators<In, Out>();
  detail::algo::check_writes<Out, std::iter_reference_t<In>>();
  detail::algo::check_callable_into<Out, Op, std::iter_reference_t<In>,
                                    std::iter_reference_t<In>>();
  if constexpr (detail::algo::runs_parallel<Policy, In, Out>) {
    const std::size_t n = detail::algo::distance(first, last);
    if (n == 0) return d_first;
    *d_first = *first;
    detail::algo::for_blocks(n - 1, [&](std::size_t lo, std::size_t hi) {
      In prev = detail::algo::advance(first, lo);
      Out o = detail::algo::advance(d_first, lo + 1);
      for (std::size_t i = lo; i < hi; ++i, ++prev, ++o) *o = op(*std::next(prev), *prev);
    });
    return detail::algo::advance(d_first, n);
  } else {
    return std::adjacent_difference(first, last, d_first, std::move(op));
  }
}

/// Range overload: `weft::inclusive_scan(in, out)` runs weft::inclusive_scan(weft::par, ...)
/// from the beginning of `in` into the beginning of `out` (which must be at least as long);
/// returns the iterator past the last element written.
template <std::ranges::forward_range R, std::ranges::forward_range O, class Op = std::plus<>>
  requires(!execution_policy<R> && std::ranges::common_range<R>)
std::ranges::iterator_t<O> inclusive_scan(R&& in, O&& out, Op op = {}) {
  return weft::inclusive_scan(execution::parallel_policy{}, std::ranges::begin(in),
                              std::ranges::end(in), std::ranges::begin(out), std::move(op));
}

}  // namespace weft
