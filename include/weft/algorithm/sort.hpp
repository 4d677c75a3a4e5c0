// SPDX-License-Identifier: MIT
// sort, stable_sort (policy and range overloads), sort_by_cached_key, is_sorted,
// is_sorted_until.
// How each maps onto the engine: docs/algorithms.md#sort
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/sort_dispatch.hpp"
#include "weft/execution.hpp"
#include "weft/iter.hpp"

namespace weft {

namespace detail::algo {
template <class It, class Comp>
constexpr void check_sortable() {
  static_assert(std::random_access_iterator<It>,
                "weft::sort / weft::stable_sort: first and last must be random-access "
                "iterators of the same type");
  static_assert(std::is_invocable_r_v<bool, Comp&, std::iter_reference_t<It>,
                                      std::iter_reference_t<It>>,
                "weft::sort / weft::stable_sort: comp must be callable as comp(a, b) on two "
                "elements and return something convertible to bool");
  static_assert(std::is_move_constructible_v<std::iter_value_t<It>> &&
                    std::is_move_assignable_v<std::iter_value_t<It>>,
                "weft::sort / weft::stable_sort: the elements must be movable");
}

template <bool Stable, class Policy, class It, class Comp, class Proj>
void sort_entry(It first, It last, Comp& comp, const Proj& proj) {
  if constexpr (runs_parallel<Policy, It>) {
    sort_par<Stable>(first, last, comp, proj);
  } else {
    sort_seq<Stable>(first, last, comp, proj);
  }
}
}  // namespace detail::algo

/// Sorts [first, last) by `comp` (default `std::less<>`), not necessarily stably. With a
/// parallel policy the work is split over the current pool:
/// - arithmetic elements with `std::less` / `std::greater` / `std::ranges::less` /
///   `std::ranges::greater`, in contiguous storage: a radix sort, same result as `std::sort`
///   (-0.0 and +0.0 are equivalent and may come out in either order; NaNs, which make
///   `std::sort` undefined, go after +inf if positive, before -inf if negative);
/// - anything else: a parallel pattern-defeating introsort (the sides of each large
///   partition sorted by a join, the first partitions split over the pool; on a pool of one
///   thread, one introsort of the whole range).
/// Input already in order, or in reverse order, is detected in one early-exit pass (on the
/// radix path, inside its first counting pass).
/// With `weft::seq`, and for element types whose moves may throw, the same introsort runs on
/// the calling thread.
/// Preconditions: `comp` is a strict weak order; with a parallel policy it may be called on
/// several threads at once. A comparator that is not one gives an unspecified order, never
/// an access outside the range ("Invalid comparators" in docs/algorithms.md). Exceptions: the
/// first exception thrown by `comp` propagates, and [first, last) then still holds every
/// original element exactly once (in some order), provided moving an element does not throw.
/// Allocation: on the radix path, a scratch buffer of n elements (2 MiB-aligned when large);
/// throws `std::bad_alloc` before touching the input if it cannot be had. The comparison
/// path needs a few words per partition split over the pool (`std::bad_alloc` then leaves
/// a permutation). One large buffer
/// (8 to 256 MiB) is kept after the call, process-wide, for the next large sort to reuse.
/// Complexity: O(n log n) comparisons whatever `comp` answers; O(n) passes for radix keys.
template <execution_policy Policy, class It, class Comp = std::less<>>
void sort(Policy&&, It first, It last, Comp comp = {}) {
  detail::algo::check_sortable<It, Comp>();
  detail::algo::sort_entry<false, Policy>(first, last, comp, std::identity{});
}

/// As `sort`, and stable: equivalent elements keep their input order. Radix keys use the same
/// radix sort (it is stable); other elements a parallel merge sort (a run merge sort inside
/// each tile, then merge-path merges across tiles); on the calling thread, the run merge sort
/// over the whole range, with a buffer of n / 2 elements. Same exception guarantee; the
/// scratch buffer is always allocated for n > 20.
template <execution_policy Policy, class It, class Comp = std::less<>>
void stable_sort(Policy&&, It first, It last, Comp comp = {}) {
  detail::algo::check_sortable<It, Comp>();
  detail::algo::sort_entry<true, Policy>(first, last, comp, std::identity{});
}

/// Range overload: `weft::sort(v)`, `weft::sort(v, comp)`, `weft::sort(v, comp, proj)`,
/// ordered by `comp(proj(a), proj(b))` as `std::ranges::sort`, run with `weft::par`. An
/// arithmetic projection under `std::ranges::less` or `std::ranges::greater` takes the radix
/// path. A projection that may throw (not `noexcept`) is called once per element before any
/// element moves, into a scratch of (key, element) records that the radix sort orders; if it
/// throws, the exception propagates and the range is untouched.
template <std::ranges::random_access_range R, class Comp = std::ranges::less,
          class Proj = std::identity>
  requires(!execution_policy<R>)
void sort(R&& r, Comp comp = {}, Proj proj = {}) {
  using It = std::ranges::iterator_t<R>;
  static_assert(std::is_invocable_r_v<bool, Comp&,
                                      std::invoke_result_t<Proj&, std::iter_reference_t<It>>,
                                      std::invoke_result_t<Proj&, std::iter_reference_t<It>>>,
                "weft::sort(r, comp, proj): comp must be callable on two projected elements");
  detail::algo::sort_entry<false, execution::parallel_policy>(
      std::ranges::begin(r), std::ranges::next(std::ranges::begin(r), std::ranges::end(r)), comp,
      proj);
}

/// Range overload of `stable_sort`, as the range `sort`: `weft::stable_sort(v, {}, &P::key)`.
template <std::ranges::random_access_range R, class Comp = std::ranges::less,
          class Proj = std::identity>
  requires(!execution_policy<R>)
void stable_sort(R&& r, Comp comp = {}, Proj proj = {}) {
  using It = std::ranges::iterator_t<R>;
  static_assert(std::is_invocable_r_v<bool, Comp&,
                                      std::invoke_result_t<Proj&, std::iter_reference_t<It>>,
                                      std::invoke_result_t<Proj&, std::iter_reference_t<It>>>,
                "weft::stable_sort(r, comp, proj): comp must be callable on two projected "
                "elements");
  detail::algo::sort_entry<true, execution::parallel_policy>(
      std::ranges::begin(r), std::ranges::next(std::ranges::begin(r), std::ranges::end(r)), comp,
      proj);
}

/// The first position i in (first, last) with comp(*i, *(i - 1)), or last. With a parallel
/// policy and random-access iterators, a search over blocks of adjacent pairs that skips the
/// blocks right of a found descent. Exceptions from `comp` propagate. No allocation.
template <execution_policy Policy, class It, class Comp = std::less<>>
It is_sorted_until(Policy&&, It first, It last, Comp comp = {}) {
  static_assert(std::forward_iterator<It>,
                "weft::is_sorted_until(policy, first, last): first and last must be forward "
                "iterators of the same type");
  static_assert(std::is_invocable_r_v<bool, Comp&, std::iter_reference_t<It>,
                                      std::iter_reference_t<It>>,
                "weft::is_sorted_until: comp must be callable as comp(a, b) on two elements");
  if constexpr (detail::algo::reads_parallel<Policy, It>) {
    const std::size_t n = detail::algo::distance(first, last);
    if (n < 2) return last;
    const std::size_t at = detail::algo::first_descent(first, n, comp);
    return at == n - 1 ? last : detail::algo::advance(first, at + 1);
  } else {
    return std::is_sorted_until(first, last, comp);
  }
}

/// Whether [first, last) is sorted by `comp`: `is_sorted_until(...) == last`.
template <execution_policy Policy, class It, class Comp = std::less<>>
bool is_sorted(Policy&& policy, It first, It last, Comp comp = {}) {
  return weft::is_sorted_until(std::forward<Policy>(policy), first, last, std::move(comp)) ==
         last;
}

/// Sorts [first, last) by key(element), calling `key` once per element (Rayon's
/// par_sort_by_cached_key, for keys that are costly to compute: a string made from each
/// element, a parse). Stable: equal keys keep their input order. The keys are computed first,
/// into a scratch of (key, position) records (in parallel under a parallel policy); if `key`
/// throws, the exception propagates and the range is untouched. The records are sorted by
/// key then position with weft::sort, and the elements moved into their places through a
/// second scratch of n elements. Keys are compared with `<`. Allocation: n records and n
/// elements; `std::bad_alloc` before the range is touched.
template <execution_policy Policy, class It, class Key>
void sort_by_cached_key(Policy&& policy, It first, It last, Key key) {
  using T = std::iter_value_t<It>;
  static_assert(std::random_access_iterator<It>,
                "weft::sort_by_cached_key: first and last must be random-access iterators");
  static_assert(std::is_invocable_v<Key&, std::iter_reference_t<It>>,
                "weft::sort_by_cached_key: key must be callable as key(element)");
  using K = std::remove_cvref_t<std::invoke_result_t<Key&, std::iter_reference_t<It>>>;
  static_assert(std::totally_ordered<K>,
                "weft::sort_by_cached_key: the keys must be ordered by operator<");
  static_assert(std::is_move_constructible_v<T> && std::is_move_assignable_v<T>,
                "weft::sort_by_cached_key: the elements must be movable");
  const auto n = static_cast<std::size_t>(last - first);
  if (n < 2) return;
  using record = std::pair<K, std::size_t>;
  const auto keyed = [&](std::size_t i) { return record(std::invoke(key, first[i]), i); };
  const auto by_key = [](const record& a, const record& b) {
    return a.first < b.first || (!(b.first < a.first) && a.second < b.second);
  };
  std::vector<record> records;
  std::vector<T> placed;
  if constexpr (detail::algo::runs_parallel<Policy, It>) {
    records = weft::range(std::size_t{0}, n).map(keyed).to_vector();
    weft::sort(policy, records.begin(), records.end(), by_key);
    placed = weft::iter(records).map([&](const record& r) { return T(std::move(first[r.second])); }).to_vector();
    weft::iter(placed).enumerate().for_each([&](auto&& at) { first[at.first] = std::move(at.second); });
  } else {
    records.reserve(n);
    for (std::size_t i = 0; i < n; ++i) records.push_back(keyed(i));
    weft::sort(policy, records.begin(), records.end(), by_key);
    placed.reserve(n);
    for (const record& r : records) placed.push_back(std::move(first[r.second]));
    std::move(placed.begin(), placed.end(), first);
  }
}

/// Range overload, run with `weft::par`: `weft::sort_by_cached_key(v, key)`.
template <std::ranges::random_access_range R, class Key>
  requires(!execution_policy<R>)
void sort_by_cached_key(R&& r, Key key) {
  weft::sort_by_cached_key(weft::par, std::ranges::begin(r),
                           std::ranges::next(std::ranges::begin(r), std::ranges::end(r)),
                           std::move(key));
}

}  // namespace weft
