// SPDX-License-Identifier: MIT
// Execution policies: weft::seq, weft::par, weft::par_unseq, and the standard ones accepted
// in their place, so that migrating from std::execution::par changes only a namespace.
#pragma once

#include <type_traits>

// The standard policy types, without the algorithm bodies. In libstdc++, <execution> drags in
// the whole parallel STL and oneTBB's headers when they are installed (about 2.4 s of compile
// time per translation unit); the policy classes alone live in <pstl/execution_defs.h>, and
// std::execution::seq / par / par_unseq are objects of exactly those classes.
#if defined(__GLIBCXX__) && __has_include(<pstl/execution_defs.h>)
#include <pstl/execution_defs.h>
namespace weft::detail {
namespace std_policy = __pstl::execution;
}
#else
#include <execution>
namespace weft::detail {
namespace std_policy = std::execution;
}
#endif

namespace weft {

namespace execution {
/// Runs the algorithm on the calling thread, as the `std::` algorithm without a policy does.
struct sequenced_policy {};
/// Runs the algorithm on the current weft pool (the global pool outside any `install`).
/// Element access functions may run on several threads at once and must not race.
struct parallel_policy {};
/// As `parallel_policy`: weft never interleaves two element accesses on one thread, so the
/// weaker guarantee the standard allows here buys nothing and is not used.
struct parallel_unsequenced_policy {};
}  // namespace execution

inline constexpr execution::sequenced_policy seq{};
inline constexpr execution::parallel_policy par{};
inline constexpr execution::parallel_unsequenced_policy par_unseq{};

/// True for weft's policies and for `std::execution::sequenced_policy`,
/// `parallel_policy` and `parallel_unsequenced_policy` (cv-ref qualifiers ignored).
template <class T>
struct is_execution_policy : std::false_type {};
template <>
struct is_execution_policy<execution::sequenced_policy> : std::true_type {};
template <>
struct is_execution_policy<execution::parallel_policy> : std::true_type {};
template <>
struct is_execution_policy<execution::parallel_unsequenced_policy> : std::true_type {};
template <>
struct is_execution_policy<detail::std_policy::sequenced_policy> : std::true_type {};
template <>
struct is_execution_policy<detail::std_policy::parallel_policy> : std::true_type {};
template <>
struct is_execution_policy<detail::std_policy::parallel_unsequenced_policy> : std::true_type {};

template <class T>
inline constexpr bool is_execution_policy_v = is_execution_policy<std::remove_cvref_t<T>>::value;

/// What the first parameter of every policy overload of weft's algorithms must satisfy.
template <class T>
concept execution_policy = is_execution_policy_v<T>;

namespace detail {
// Whether a policy asks for parallel execution (every accepted policy but the sequenced ones).
template <class T>
inline constexpr bool is_parallel_policy_v =
    is_execution_policy_v<T> &&
    !std::is_same_v<std::remove_cvref_t<T>, execution::sequenced_policy> &&
    !std::is_same_v<std::remove_cvref_t<T>, std_policy::sequenced_policy>;
}  // namespace detail

}  // namespace weft

