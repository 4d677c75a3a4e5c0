// SPDX-License-Identifier: MIT
// weft::join: fork two callables, potentially in parallel, and wait for both.
// Design: docs/design.md#the-life-of-a-join
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

#include "weft/detail/fork/join_impl.hpp"

namespace weft {

/// Runs `a` and `b`, potentially in parallel, and returns both results:
/// `auto [x, y] = weft::join(f, g);`. A side that returns void comes back as `weft::unit`;
/// when both return void, join returns void.
///
/// `a` runs on the calling thread; `b` is offered to other workers and run by the caller
/// if nobody took it. Both callables may borrow from the caller's frame. A callable passed
/// as a temporary that is trivially copyable and at most two words may run as a copy.
/// Exceptions: both sides always run to completion; then the exception of `a` is
/// rethrown if it threw, else that of `b`.
/// Preconditions: `a` and `b` are callable with no arguments (checked at compile time);
/// whatever they share must be safe to touch from two threads at once.
/// Allocation: none (the job for `b` lives in join's frame). Outside every pool, the first
/// call creates the global pool (`WEFT_NUM_THREADS` threads).
/// Thread safety: callable from any thread; outside every pool it runs on the global pool.
/// Complexity: O(1) beyond the callables: a few ns when `b` is not stolen (no atomic RMW,
/// no fence); a steal or a wake-up costs more (docs/benchmarks.md).
template <class A, class B>
WEFT_INLINE auto join(A&& a, B&& b) {
  static_assert(std::is_invocable_v<A&>,
                "weft::join(a, b): `a` must be callable with no arguments, e.g. [&] { ... }");
  static_assert(std::is_invocable_v<B&>,
                "weft::join(a, b): `b` must be callable with no arguments, e.g. [&] { ... }");
  // The gate (ADR 0008, protocol in detail/sched/worker.hpp): one thread-local load decides
  // that `a` and `b` run as two plain calls. Kept this small so that the compiler treats a
  // recursion through join like plain recursion (it inlines it into itself as it does for
  // sequential code); everything else is join_slow, out of line.
  if (__builtin_expect(detail::current_gate->load(std::memory_order_relaxed) != 0, 1))  // G4
    return detail::join_unrecorded(a, b);
  return detail::join_slow<detail::fork_arg_t<A>, detail::fork_arg_t<B>>(a, b);
}

namespace detail {
// The value a callable of an n-ary join contributes to its tuple (void -> unit).
template <class F>
using join_value_t = returned_result_t<std::invoke_result_t<F&>>;

// join(a, b, c, ...) as a chain of binary joins: `a` on this thread, the rest offered as one
// piece, which forks again. Results come back as a tuple in argument order.
template <class A, class... Rest>
std::tuple<join_value_t<A>, join_value_t<Rest>...> join_tuple(A& a, Rest&... rest) {
  if constexpr (sizeof...(Rest) == 0) {
    return std::tuple<join_value_t<A>>(invoke_to_value(a));
  } else {
    auto first = [&a]() -> join_value_t<A> { return invoke_to_value(a); };
    auto others = [&rest...] { return join_tuple(rest...); };
    auto [x, more] = join(first, others);
    return std::tuple_cat(std::tuple<join_value_t<A>>(std::move(x)), std::move(more));
  }
}
}  // namespace detail

/// Runs three or more callables, potentially in parallel, and returns their results as a
/// tuple in argument order: `auto [x, y, z] = weft::join(f, g, h);` (a void callable
/// contributes `weft::unit`; when all return void, join returns void).
/// The first callable runs on the calling thread; the others are offered to other workers
/// as a chain of binary joins. Exceptions: every callable runs to completion; then the
/// exception of the leftmost callable that threw is rethrown.
/// Preconditions: each callable is callable with no arguments (checked at compile time).
/// Allocation: none. Complexity: n - 1 joins.
template <class A, class B, class C, class... Rest>
auto join(A&& a, B&& b, C&& c, Rest&&... rest) {
  static_assert(std::is_invocable_v<A&> && std::is_invocable_v<B&> && std::is_invocable_v<C&> &&
                    (std::is_invocable_v<Rest&> && ...),
                "weft::join(f, g, h, ...): every callable must be callable with no arguments, "
                "e.g. [&] { ... }");
  if constexpr (std::is_void_v<std::invoke_result_t<A&>> && std::is_void_v<std::invoke_result_t<B&>> &&
                std::is_void_v<std::invoke_result_t<C&>> &&
                (std::is_void_v<std::invoke_result_t<Rest&>> && ...)) {
    static_cast<void>(detail::join_tuple(a, b, c, rest...));
  } else {
    return detail::join_tuple(a, b, c, rest...);
  }
}

/// Offers the calling worker's forked-but-not-yet-taken jobs (the `b` sides of the joins it
/// is inside) to idle workers, if any worker is idle. A join publishes such jobs only when it
/// forks, so a long sequential loop that runs under a join should call this now and then
/// (the iterator engine does, between blocks): otherwise an idle thread could wait for the
/// loop's next fork. Costs one thread-local and one relaxed load when nobody is idle.
/// Thread safety: any thread; a no-op outside a pool.
inline void offer_work() noexcept {
  if (detail::worker* w = detail::current_worker)
    if (w->deque.has_private() && w->someone_is_hungry()) [[unlikely]]
      detail::rt::share_work(*w);
}

namespace detail {
// The splitting engine's call between two blocks of a leaf (plumbing/split_tree.hpp): offers this
// worker's pending forks to idle threads, as offer_work does, and returns true when a thread
// is idle and this worker has nothing, private or published, to give it, so that the only
// work left to take is the rest of the loop the caller is in. One demand check for both.
// Relaxed and racy like offer_work: a stale answer costs one needless split or one missed,
// never correctness.
inline bool offer_work_or_want_split() noexcept {
  worker* const w = current_worker;
  if (w == nullptr || !w->someone_is_hungry()) [[likely]]
    return false;
  if (w->deque.has_private()) {
    rt::share_work(*w);
    return false;
  }
  return w->deque.public_is_empty();
}

// weft::join, except that `b` is offered to other workers before `a` starts, whether or not
// one is idle yet (join_shared in detail/fork/join_impl.hpp): for the splitting engine's
// leaves over long items.
template <class A, class B>
auto join_eagerly_shared(A&& a, B&& b) {
  return join_shared<fork_arg_t<A>, fork_arg_t<B>>(a, b);
}
}  // namespace detail

}  // namespace weft
