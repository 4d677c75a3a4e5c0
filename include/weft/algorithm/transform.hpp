// SPDX-License-Identifier: MIT
// Element-wise writes: copy, copy_n, move, transform (unary and binary), fill, fill_n,
// generate, generate_n, replace, replace_if, replace_copy, replace_copy_if, swap_ranges,
// reverse, reverse_copy, rotate, rotate_copy.
//
// Each is one pass of detail::algo::for_blocks: a block runs the sequential std::
// algorithm on its part of the input and the matching part of the output, so the leaf loop
// is exactly the one std:: would run (memcpy/memmove for trivially copyable copies,
// vectorised transforms). The algorithms that only write their output (copy, move,
// transform, fill, generate, replace_copy(_if), reverse_copy) write one of at least 16 MiB
// of a trivial type with streaming stores, a line at a time (for_output_blocks in
// kernels/output_blocks.hpp). Input and output ranges must not overlap, except where the
// standard allows it (transform and replace in place).
// Exceptions: the first exception thrown by a user callable or an element's copy/move
// propagates; the output then holds a mix of old and new values (as with std::).
// Allocation: none. Complexity: O(n) element operations, as the std:: algorithm (rotate:
// three reversals, about n swaps). User callables run on several threads at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/checks.hpp"
#include "weft/execution.hpp"

namespace weft {
namespace detail::algo {

// body(in_block_first, in_block_last, d) over matching blocks of [first, first + n) and
// [out, out + n), where body writes the block's outputs at d and never reads them (d is
// Out or, for a streamed output, a line buffer: for_output_blocks); returns out + n.
template <class It, class Out, class Body>
Out for_matching_blocks(It first, std::size_t n, Out out, const Body& body) {
  return for_output_blocks(out, n, same_position(first, out),
                           [&](std::size_t lo, std::size_t hi, auto d) {
                             body(algo::advance(first, lo), algo::advance(first, hi), d);
                           });
}

}  // namespace detail::algo

/// Copies [first, last) to [d_first, ...); returns the end of the output. The ranges must
/// not overlap.
template <execution_policy Policy, class It, class Out>
Out copy(Policy&&, It first, It last, Out d_first) {
  detail::algo::check_forward<It>();
  detail::algo::check_output<Out, std::iter_reference_t<It>>();
  if constexpr (detail::algo::runs_parallel<Policy, It, Out>)
    return detail::algo::for_matching_blocks(
        first, detail::algo::distance(first, last), d_first,
        [](It b, It e, auto d) { std::copy(b, e, d); });
  else
    return std::copy(first, last, d_first);
}

/// Copies the first `count` elements (none if count <= 0); returns the end of the output.
template <execution_policy Policy, class It, class Size, class Out>
Out copy_n(Policy&& policy, It first, Size count, Out d_first) {
  detail::algo::check_forward<It>();
  if (count <= Size(0)) return d_first;
  return weft::copy(std::forward<Policy>(policy), first,
                    std::next(first, static_cast<std::iter_difference_t<It>>(count)), d_first);
}

/// Moves [first, last) to [d_first, ...); returns the end of the output.
template <execution_policy Policy, class It, class Out>
Out move(Policy&&, It first, It last, Out d_first) {
  detail::algo::check_forward<It>();
  detail::algo::check_output<Out, std::iter_rvalue_reference_t<It>>();
  if constexpr (detail::algo::runs_parallel<Policy, It, Out>)
    return detail::algo::for_matching_blocks(
        first, detail::algo::distance(first, last), d_first,
        [](It b, It e, auto d) { std::move(b, e, d); });
  else
    return std::move(first, last, d_first);
}

/// d_first[i] = op(first[i]) for each i; d_first may equal first. Returns the output's end.
template <execution_policy Policy, class It, class Out, class Op>
Out transform(Policy&&, It first, It last, Out d_first, Op op) {
  detail::algo::check_forward<It>();
  detail::algo::check_output<Out>();
  detail::algo::check_callable_into<Out, Op, std::iter_reference_t<It>>();
  if constexpr (detail::algo::runs_parallel<Policy, It, Out>)
    return detail::algo::for_matching_blocks(
        first, detail::algo::distance(first, last), d_first,
        [&op](It b, It e, auto d) { std::transform(b, e, d, op); });
  else
    return std::transform(first, last, d_first, op);
}

/// d_first[i] = op(first1[i], first2[i]) for each i of [first1, last1).
template <execution_policy Policy, class It1, class It2, class Out, class Op>
Out transform(Policy&&, It1 first1, It1 last1, It2 first2, Out d_first, Op op) {
  detail::algo::check_forward<It1>();
  detail::algo::check_forward<It2>();
  detail::algo::check_output<Out>();
  detail::algo::check_callable_into<Out, Op, std::iter_reference_t<It1>,
                                    std::iter_reference_t<It2>>();
  if constexpr (detail::algo::runs_parallel<Policy, It1, It2, Out>) {
    const bool in_place = detail::algo::same_position(first1, d_first) ||
                          detail::algo::same_position(first2, d_first);
    return detail::algo::for_output_blocks(
        d_first, detail::algo::distance(first1, last1), in_place,
        [&](std::size_t lo, std::size_t hi, auto d) {
          std::transform(detail::algo::advance(first1, lo), detail::algo::advance(first1, hi),
                         detail::algo::advance(first2, lo), d, op);
        });
  } else {
    return std::transform(first1, last1, first2, d_first, op);
  }
}

/// Assigns `value` to every element.
template <execution_policy Policy, class It, class T>
void fill(Policy&&, It first, It last, const T& value) {
  detail::algo::check_forward<It>();
  detail::algo::check_writes<It, const T&>();
  if constexpr (detail::algo::runs_parallel<Policy, It>)
    detail::algo::for_output_blocks(
        first, detail::algo::distance(first, last), false,
        [&](std::size_t lo, std::size_t hi, auto d) { std::fill_n(d, hi - lo, value); });
  else
    std::fill(first, last, value);
}

/// Assigns `value` to the first `count` elements; returns first + count (first if count <= 0).
template <execution_policy Policy, class It, class Size, class T>
It fill_n(Policy&& policy, It first, Size count, const T& value) {
  detail::algo::check_forward<It>();
  if (count <= Size(0)) return first;
  const It last = std::next(first, static_cast<std::iter_difference_t<It>>(count));
  weft::fill(std::forward<Policy>(policy), first, last, value);
  return last;
}

/// Assigns gen() to every element; `gen` is called on several threads at once, in no order.
template <execution_policy Policy, class It, class Gen>
void generate(Policy&&, It first, It last, Gen gen) {
  detail::algo::check_forward<It>();
  detail::algo::check_callable_into<It, Gen>();
  if constexpr (detail::algo::runs_parallel<Policy, It>)
    detail::algo::for_output_blocks(
        first, detail::algo::distance(first, last), false,
        [&](std::size_t lo, std::size_t hi, auto d) { std::generate_n(d, hi - lo, gen); });
  else
    std::generate(first, last, gen);
}

/// generate on the first `count` elements; returns first + count (first if count <= 0).
template <execution_policy Policy, class It, class Size, class Gen>
It generate_n(Policy&& policy, It first, Size count, Gen gen) {
  detail::algo::check_forward<It>();
  if (count <= Size(0)) return first;
  const It last = std::next(first, static_cast<std::iter_difference_t<It>>(count));
  weft::generate(std::forward<Policy>(policy), first, last, std::move(gen));
  return last;
}

/// Replaces every element for which `pred` holds by `new_value`.
template <execution_policy Policy, class It, class Pred, class T>
void replace_if(Policy&&, It first, It last, Pred pred, const T& new_value) {
  detail::algo::check_forward<It>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>>();
  if constexpr (detail::algo::runs_parallel<Policy, It>)
    detail::algo::for_blocks(detail::algo::distance(first, last),
                             [&](std::size_t lo, std::size_t hi) {
                               std::replace_if(detail::algo::advance(first, lo),
                                               detail::algo::advance(first, hi), pred,
                                               new_value);
                             });
  else
    std::replace_if(first, last, pred, new_value);
}

/// Replaces every element equal to `old_value` by `new_value`.
template <execution_policy Policy, class It, class T>
void replace(Policy&& policy, It first, It last, const T& old_value, const T& new_value) {
  weft::replace_if(std::forward<Policy>(policy), first, last,
                   [&old_value](const auto& x) { return x == old_value; }, new_value);
}

/// Copies [first, last), writing `new_value` instead of each element for which `pred` holds.
template <execution_policy Policy, class It, class Out, class Pred, class T>
Out replace_copy_if(Policy&&, It first, It last, Out d_first, Pred pred, const T& new_value) {
  detail::algo::check_forward<It>();
  detail::algo::check_output<Out, std::iter_reference_t<It>, const T&>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>>();
  if constexpr (detail::algo::runs_parallel<Policy, It, Out>)
    return detail::algo::for_matching_blocks(
        first, detail::algo::distance(first, last), d_first,
        [&](It b, It e, auto d) { std::replace_copy_if(b, e, d, pred, new_value); });
  else
    return std::replace_copy_if(first, last, d_first, pred, new_value);
}

/// Copies [first, last), writing `new_value` instead of each element equal to `old_value`.
template <execution_policy Policy, class It, class Out, class T>
Out replace_copy(Policy&& policy, It first, It last, Out d_first, const T& old_value,
                 const T& new_value) {
  return weft::replace_copy_if(std::forward<Policy>(policy), first, last, d_first,
                               [&old_value](const auto& x) { return x == old_value; }, new_value);
}

/// Swaps [first1, last1) with the range at first2; returns the end of the second range.
template <execution_policy Policy, class It1, class It2>
It2 swap_ranges(Policy&&, It1 first1, It1 last1, It2 first2) {
  detail::algo::check_forward<It1>();
  detail::algo::check_forward<It2>();
  if constexpr (detail::algo::runs_parallel<Policy, It1, It2>) {
    const std::size_t n = detail::algo::distance(first1, last1);
    detail::algo::for_blocks(n, [&](std::size_t lo, std::size_t hi) {
      std::swap_ranges(detail::algo::advance(first1, lo), detail::algo::advance(first1, hi),
                       detail::algo::advance(first2, lo));
    });
    return detail::algo::advance(first2, n);
  } else {
    return std::swap_ranges(first1, last1, first2);
  }
}

/// Reverses [first, last) in place (pairs of elements are swapped in parallel).
template <execution_policy Policy, class It>
void reverse(Policy&&, It first, It last) {
  detail::algo::check_forward<It>();
  if constexpr (detail::algo::runs_parallel<Policy, It>) {
    const std::size_t n = detail::algo::distance(first, last);
    detail::algo::for_blocks(n / 2, [&](std::size_t lo, std::size_t hi) {
      std::swap_ranges(detail::algo::advance(first, lo), detail::algo::advance(first, hi),
                       std::reverse_iterator<It>(detail::algo::advance(first, n - lo)));
    });
  } else {
    std::reverse(first, last);
  }
}

/// Copies [first, last) reversed to [d_first, ...); returns the end of the output.
template <execution_policy Policy, class It, class Out>
Out reverse_copy(Policy&&, It first, It last, Out d_first) {
  detail::algo::check_forward<It>();
  detail::algo::check_output<Out, std::iter_reference_t<It>>();
  if constexpr (detail::algo::runs_parallel<Policy, It, Out>) {
    const std::size_t n = detail::algo::distance(first, last);
    return detail::algo::for_output_blocks(
        d_first, n, false, [&](std::size_t lo, std::size_t hi, auto d) {
          std::reverse_copy(detail::algo::advance(first, n - hi),
                            detail::algo::advance(first, n - lo), d);
        });
  } else {
    return std::reverse_copy(first, last, d_first);
  }
}

/// Rotates [first, last) so that `middle` becomes the first element; returns the new
/// position of the old first element. In parallel: three reversals, each a parallel pass.
template <execution_policy Policy, class It>
It rotate(Policy&& policy, It first, It middle, It last) {
  detail::algo::check_forward<It>();
  if constexpr (detail::algo::runs_parallel<Policy, It>) {
    if (first == middle) return last;
    if (middle == last) return first;
    weft::reverse(policy, first, middle);
    weft::reverse(policy, middle, last);
    weft::reverse(policy, first, last);
    return first + (last - middle);
  } else {
    return std::rotate(first, middle, last);
  }
}

/// Copies [middle, last) then [first, middle) to [d_first, ...); returns the output's end.
template <execution_policy Policy, class It, class Out>
Out rotate_copy(Policy&& policy, It first, It middle, It last, Out d_first) {
  detail::algo::check_forward<It>();
  detail::algo::check_output<Out, std::iter_reference_t<It>>();
  if constexpr (detail::algo::runs_parallel<Policy, It, Out>)
    return weft::copy(policy, first, middle, weft::copy(policy, middle, last, d_first));
  else
    return std::rotate_copy(first, middle, last, d_first);
}

}  // namespace weft
