// SPDX-License-Identifier: MIT
// Reductions: reduce, transform_reduce, count, count_if, min_element, max_element,
// minmax_element.
//
// Each is one pass of detail::algo::reduce_blocks: a block runs the sequential std::
// algorithm on its part, adjacent blocks combine left to right. Sums of arithmetic types
// with std::plus run as an iter pipeline instead, whose leaf uses 8 accumulators and
// vectorises (a parallel reduction reassociates anyway: the standard allows it for reduce
// and transform_reduce, whose operations must be associative and commutative). The pipeline
// runs over indices, not over a std::ranges::subrange, which clang 14 cannot compile with
// libstdc++ 12.
// Exceptions: the first exception thrown by a user callable propagates.
// Allocation: none. Complexity: O(n) applications of the operations. User callables run on
// several threads at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <numeric>
#include <type_traits>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/checks.hpp"
#include "weft/execution.hpp"
#include "weft/iter.hpp"

namespace weft {
namespace detail::algo {

// std::count_if without a branch per element: whether GCC if-converts `if (pred(x)) ++n`
// depends on the context it is inlined into, and an unpredictable predicate then costs a
// misprediction per element (measured: 3-5x slower leaves).
template <class D, class It, class Pred>
D count_matches(It first, It last, Pred pred) {
  D n = 0;
  for (; first != last; ++first) n += static_cast<D>(static_cast<bool>(std::invoke(pred, *first)));
  return n;
}

// A sequential reduction of [first, last) into `init`, each element passed through `proj`.
// libstdc++'s std::reduce and std::transform_reduce combine as `init = op(init, x)`: a copy
// of the accumulator per element, which makes a std::string concatenation quadratic in the
// length of the range (100,003 strings: 6 s). A class-type accumulator is folded left with
// a move instead, as std::accumulate does since C++20; an arithmetic one keeps std::reduce's
// unrolled tree (independent partial results, which the CPU overlaps).
template <class It, class T, class Op, class Proj = std::identity>
T reduce_seq(It first, It last, T init, Op& op, Proj proj = {}) {
  if constexpr (std::is_arithmetic_v<T>) {
    return std::transform_reduce(first, last, std::move(init), op, [&](auto&& x) {
      return std::invoke(proj, std::forward<decltype(x)>(x));
    });
  } else {
    for (; first != last; ++first) init = op(std::move(init), std::invoke(proj, *first));
    return init;
  }
}

// reduce_seq for the pairs of [first1, last1) and the range at first2.
template <class It1, class It2, class T, class Op, class Transform>
T reduce_pairs_seq(It1 first1, It1 last1, It2 first2, T init, Op& op, Transform& transform) {
  if constexpr (std::is_arithmetic_v<T>) {
    return std::transform_reduce(first1, last1, first2, std::move(init), op, transform);
  } else {
    for (; first1 != last1; ++first1, ++first2)
      init = op(std::move(init), transform(*first1, *first2));
    return init;
  }
}

template <class T, class Op>
inline constexpr bool is_arithmetic_plus =
    std::is_arithmetic_v<T> &&
    (std::is_same_v<Op, std::plus<>> || std::is_same_v<Op, std::plus<T>>);

}  // namespace detail::algo

namespace detail::algo {

// reduce and the unary transform_reduce, after their checks (reduce: `transform` is
// std::identity).
template <class Policy, class It, class T, class ReduceOp, class TransformOp>
T transform_reduce_unary(It first, It last, T init, ReduceOp& reduce_op,
                         TransformOp& transform) {
  if constexpr (reads_parallel<Policy, It>) {
    if constexpr (is_arithmetic_plus<T, ReduceOp>) {
      return init + weft::range(std::size_t{0}, algo::distance(first, last))
                        .map([&](std::size_t i) -> T {
                          return transform(*algo::advance(first, i));
                        })
                        .template sum<T>();
    } else {
      const auto r = algo::reduce_blocks<T>(
          algo::distance(first, last),
          [&](std::size_t lo, std::size_t hi) {
            const It b = algo::advance(first, lo);
            return algo::reduce_seq(std::next(b), algo::advance(first, hi), T(transform(*b)),
                                    reduce_op, transform);
          },
          reduce_op);
      return r ? reduce_op(std::move(init), std::move(*r)) : init;
    }
  } else {
    return algo::reduce_seq(first, last, std::move(init), reduce_op, transform);
  }
}

}  // namespace detail::algo

/// init combined by `op` with the elements of [first, last) in any order and grouping
/// (`op` must be associative and commutative). Defaults: op = std::plus<>, init = T{} where
/// T is the value type. O(n) applications of `op`; no allocation.
template <execution_policy Policy, class It, class T, class Op>
T reduce(Policy&&, It first, It last, T init, Op op) {
  detail::algo::check_forward<It>();
  detail::algo::check_callable<Op, T, std::iter_reference_t<It>>();
  std::identity as_is;
  return detail::algo::transform_reduce_unary<Policy>(first, last, std::move(init), op, as_is);
}

template <execution_policy Policy, class It, class T>
T reduce(Policy&& policy, It first, It last, T init) {
  return weft::reduce(std::forward<Policy>(policy), first, last, std::move(init), std::plus<>{});
}

template <execution_policy Policy, class It>
std::iter_value_t<It> reduce(Policy&& policy, It first, It last) {
  return weft::reduce(std::forward<Policy>(policy), first, last, std::iter_value_t<It>{},
                      std::plus<>{});
}

/// init combined by `reduce_op` with transform(x) for every x of [first, last); the same
/// freedom of order as `reduce`.
template <execution_policy Policy, class It, class T, class ReduceOp, class TransformOp>
T transform_reduce(Policy&&, It first, It last, T init, ReduceOp reduce_op,
                   TransformOp transform) {
  detail::algo::check_forward<It>();
  detail::algo::check_callable<TransformOp, std::iter_reference_t<It>>();
  return detail::algo::transform_reduce_unary<Policy>(first, last, std::move(init), reduce_op,
                                                      transform);
}

/// init combined by `reduce_op` with transform(a, b) for the pairs of [first1, last1) and
/// the range at first2 (default: the inner product, std::plus and std::multiplies).
template <execution_policy Policy, class It1, class It2, class T, class ReduceOp,
          class TransformOp>
T transform_reduce(Policy&&, It1 first1, It1 last1, It2 first2, T init, ReduceOp reduce_op,
                   TransformOp transform) {
  detail::algo::check_forward<It1>();
  detail::algo::check_forward<It2>();
  detail::algo::check_callable<TransformOp, std::iter_reference_t<It1>,
                               std::iter_reference_t<It2>>();
  if constexpr (detail::algo::reads_parallel<Policy, It1, It2>) {
    const std::size_t n = detail::algo::distance(first1, last1);
    if constexpr (detail::algo::is_arithmetic_plus<T, ReduceOp>) {
      return init + weft::range(std::size_t{0}, n)
                        .map([&](std::size_t i) -> T {
                          return transform(*detail::algo::advance(first1, i),
                                           *detail::algo::advance(first2, i));
                        })
                        .template sum<T>();
    } else {
      const auto r = detail::algo::reduce_blocks<T>(
          n,
          [&](std::size_t lo, std::size_t hi) {
            const It1 a = detail::algo::advance(first1, lo);
            const It2 b = detail::algo::advance(first2, lo);
            return detail::algo::reduce_pairs_seq(std::next(a), detail::algo::advance(first1, hi),
                                                  std::next(b), T(transform(*a, *b)), reduce_op,
                                                  transform);
          },
          reduce_op);
      return r ? reduce_op(std::move(init), std::move(*r)) : init;
    }
  } else {
    return detail::algo::reduce_pairs_seq(first1, last1, first2, std::move(init), reduce_op,
                                          transform);
  }
}

template <execution_policy Policy, class It1, class It2, class T>
T transform_reduce(Policy&& policy, It1 first1, It1 last1, It2 first2, T init) {
  return weft::transform_reduce(std::forward<Policy>(policy), first1, last1, first2,
                                std::move(init), std::plus<>{}, std::multiplies<>{});
}

/// The number of elements for which `pred` holds.
template <execution_policy Policy, class It, class Pred>
std::iter_difference_t<It> count_if(Policy&&, It first, It last, Pred pred) {
  detail::algo::check_forward<It>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>>();
  if constexpr (detail::algo::reads_parallel<Policy, It>) {
    using D = std::iter_difference_t<It>;
    return detail::algo::reduce_blocks<D>(
               detail::algo::distance(first, last),
               [&](std::size_t lo, std::size_t hi) {
                 return detail::algo::count_matches<D>(detail::algo::advance(first, lo),
                                                       detail::algo::advance(first, hi), pred);
               },
               std::plus<D>{})
        .value_or(D{0});
  } else {
    return std::count_if(first, last, pred);
  }
}

/// The number of elements equal to `value`.
template <execution_policy Policy, class It, class T>
std::iter_difference_t<It> count(Policy&& policy, It first, It last, const T& value) {
  return weft::count_if(std::forward<Policy>(policy), first, last,
                        [&value](const auto& x) { return x == value; });
}

namespace detail::algo {
// The first element that no other element precedes under `before` (std::min_element's
// contract); max_element is the same search under the swapped comparator.
template <class It, class Before>
It first_least(It first, It last, Before before) {
  const auto at = [&](std::size_t i) -> decltype(auto) { return *detail::algo::advance(first, i); };
  const auto r = detail::algo::reduce_blocks<std::size_t>(
      detail::algo::distance(first, last),
      [&](std::size_t lo, std::size_t hi) {
        const It b = detail::algo::advance(first, lo);
        return lo + static_cast<std::size_t>(
                        std::min_element(b, detail::algo::advance(first, hi), before) - b);
      },
      [&](std::size_t a, std::size_t b) { return before(at(b), at(a)) ? b : a; });
  return r ? detail::algo::advance(first, *r) : last;
}

template <class Comp>
struct swapped_comp {
  Comp& comp;
  template <class A, class B>
  bool operator()(A&& a, B&& b) const {
    return comp(std::forward<B>(b), std::forward<A>(a));
  }
};
}  // namespace detail::algo

/// The first smallest element under `comp`, or `last` if the range is empty.
template <execution_policy Policy, class It, class Comp = std::less<>>
It min_element(Policy&&, It first, It last, Comp comp = {}) {
  detail::algo::check_forward<It>();
  detail::algo::check_predicate<Comp, std::iter_reference_t<It>, std::iter_reference_t<It>>();
  if constexpr (detail::algo::reads_parallel<Policy, It>)
    return detail::algo::first_least(first, last, std::ref(comp));
  else
    return std::min_element(first, last, comp);
}

/// The first largest element under `comp`, or `last` if the range is empty.
template <execution_policy Policy, class It, class Comp = std::less<>>
It max_element(Policy&&, It first, It last, Comp comp = {}) {
  detail::algo::check_forward<It>();
  detail::algo::check_predicate<Comp, std::iter_reference_t<It>, std::iter_reference_t<It>>();
  if constexpr (detail::algo::reads_parallel<Policy, It>)
    return detail::algo::first_least(first, last, detail::algo::swapped_comp<Comp>{comp});
  else
    return std::max_element(first, last, comp);
}

/// {the first smallest, the last largest} element under `comp`; {last, last} if empty.
template <execution_policy Policy, class It, class Comp = std::less<>>
std::pair<It, It> minmax_element(Policy&&, It first, It last, Comp comp = {}) {
  detail::algo::check_forward<It>();
  detail::algo::check_predicate<Comp, std::iter_reference_t<It>, std::iter_reference_t<It>>();
  if constexpr (detail::algo::reads_parallel<Policy, It>) {
    using detail::algo::index_pair;
    const auto at = [&](std::size_t i) -> decltype(auto) { return *detail::algo::advance(first, i); };
    const auto r = detail::algo::reduce_blocks<index_pair>(
        detail::algo::distance(first, last),
        [&](std::size_t lo, std::size_t hi) {
          const It b = detail::algo::advance(first, lo);
          const auto [mn, mx] = std::minmax_element(b, detail::algo::advance(first, hi), comp);
          return index_pair{lo + static_cast<std::size_t>(mn - b),
                            lo + static_cast<std::size_t>(mx - b)};
        },
        [&](index_pair a, index_pair b) {
          return index_pair{comp(at(b.first), at(a.first)) ? b.first : a.first,
                            comp(at(b.second), at(a.second)) ? a.second : b.second};
        });
    if (!r) return {last, last};
    return {detail::algo::advance(first, r->first), detail::algo::advance(first, r->second)};
  } else {
    return std::minmax_element(first, last, comp);
  }
}

}  // namespace weft
