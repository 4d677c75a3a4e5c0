// SPDX-License-Identifier: MIT
// The compile-time checks shared by the policy overloads: one readable message each, instead
// of an error deep inside a std:: algorithm. The instantiation trace names the weft function.
#pragma once

#include <iterator>
#include <type_traits>
#include <utility>

namespace weft::detail::algo {

template <class It>
constexpr void check_forward() {
  static_assert(std::forward_iterator<It>,
                "weft: the parallel overloads take forward iterators (as std::execution's do); "
                "this argument is not one (is it a value, a pointer to const for an output, or "
                "an input-only iterator such as std::istream_iterator?)");
}

// What std::copy and its kin require of an output: `*out = x` for each x the algorithm
// writes (an element of the input, its rvalue, the function object's result). Not
// std::indirectly_writable, which also asks for assignment through a const proxy that
// libstdc++ 12's std::vector<bool> lacks.
template <class Out, class T>
concept writes_to = requires(Out out, T&& x) { *out = std::forward<T>(x); };

template <class Out, class... Ts>
constexpr void check_writes() {
  static_assert((writes_to<Out, Ts> && ...),
                "weft: the output's elements cannot be assigned what this algorithm writes "
                "(`*out = x` does not compile for x an element of the input, or the function "
                "object's result): check the element types of the ranges");
}

// An output range of a parallel overload that receives values of types Ts (none: the
// algorithm constructs in place).
template <class Out, class... Ts>
constexpr void check_output() {
  static_assert(std::forward_iterator<Out>,
                "weft: the output of a parallel overload must be a forward iterator (as "
                "std::execution requires): std::back_inserter and ostream iterators are not; "
                "size the output first and pass its begin()");
  if constexpr (std::forward_iterator<Out>) check_writes<Out, Ts...>();
}

template <class F, class... Args>
constexpr void check_callable() {
  static_assert(std::is_invocable_v<F&, Args...>,
                "weft: the function object cannot be called with the elements of the input "
                "range (check its parameter types and count)");
}

// A function object whose result the algorithm writes through Out (transform, generate).
template <class Out, class F, class... Args>
constexpr void check_callable_into() {
  check_callable<F, Args...>();
  if constexpr (std::is_invocable_v<F&, Args...>)
    check_writes<Out, std::invoke_result_t<F&, Args...>>();
}

template <class Pred, class... Args>
constexpr void check_predicate() {
  static_assert(std::is_invocable_v<Pred&, Args...>,
                "weft: the predicate cannot be called with the elements of the input range");
  if constexpr (std::is_invocable_v<Pred&, Args...>)
    static_assert(std::is_convertible_v<std::invoke_result_t<Pred&, Args...>, bool>,
                  "weft: the predicate must return something convertible to bool");
}

}  // namespace weft::detail::algo
