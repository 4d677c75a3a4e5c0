// SPDX-License-Identifier: MIT
// Which kernel a sort call runs: the radix sort for arithmetic keys ordered by the default
// comparator or its reverse (through keys extracted first when the projection may throw),
// the merge sort for everything else, the sequential kernels on the calling thread where
// weft cannot keep its exception guarantee in parallel (moves that may throw) and for the
// sequential policies.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/keyed_radix_sort.hpp"
#include "weft/kernels/merge_sort.hpp"
#include "weft/kernels/par_introsort.hpp"
#include "weft/kernels/radix_sort.hpp"
#include "weft/kernels/run_merge_sort.hpp"
#include "weft/kernels/seq_sort.hpp"
#include "weft/pool.hpp"

namespace weft::detail::algo {

// +1: an ascending comparator the radix sort reproduces for key type K; -1: descending;
// 0: anything else (a user comparator is opaque, so it takes the comparison path).
template <class Comp, class K>
inline constexpr int radix_order_v =
    std::is_same_v<Comp, std::less<>> || std::is_same_v<Comp, std::less<K>> ||
            std::is_same_v<Comp, std::ranges::less>
        ? 1
    : std::is_same_v<Comp, std::greater<>> || std::is_same_v<Comp, std::greater<K>> ||
            std::is_same_v<Comp, std::ranges::greater>
        ? -1
        : 0;

template <class It, class Proj>
using projected_key_t = std::remove_cvref_t<std::invoke_result_t<const Proj&, std::iter_reference_t<It>>>;

// Whether the radix sort reproduces comp on proj: contiguous elements it can move, an
// arithmetic key, comp ascending or descending on it.
template <class It, class Comp, class Proj>
constexpr bool radix_orders() {
  if constexpr (!std::contiguous_iterator<It> ||
                !std::is_invocable_v<const Proj&, std::iter_reference_t<It>>) {
    return false;
  } else {
    using K = projected_key_t<It, Proj>;
    if constexpr (!radix_key_v<K>)
      return false;
    else
      return radix_order_v<Comp, K> != 0 && radix_movable_v<std::iter_value_t<It>>;
  }
}

// The radix sort calls the projection inside its passes, where nothing may throw; a
// projection that may throw takes keyed_radix_sort, which calls it on every element before
// anything moves and never trusts a second call.
template <class It, class Comp, class Proj>
constexpr bool radix_eligible() {
  if constexpr (!radix_orders<It, Comp, Proj>())
    return false;
  else
    return std::is_nothrow_invocable_v<const Proj&, std::iter_reference_t<It>>;
}

// The comparator on elements: comp on the projections.
template <class Comp, class Proj>
struct projected_less {
  Comp* comp;
  const Proj* proj;
  template <class A, class B>
  bool operator()(A&& a, B&& b) const {
    return std::invoke(*comp, std::invoke(*proj, std::forward<A>(a)),
                       std::invoke(*proj, std::forward<B>(b)));
  }
};

// The first i in [0, n - 1) with comp(a[i + 1], a[i]) (a descent), or n - 1 (n >= 1).
// is_sorted_until and the sorts' shortcut below.
template <class It, class C>
std::size_t first_descent(It a, std::size_t n, C& comp) {
  return first_index<groups_elements<It>>(n - 1, [&](std::size_t i) {
    return static_cast<bool>(comp(*algo::advance(a, i + 1), *algo::advance(a, i)));
  });
}

// Already in order: nothing to do. In reverse order (strictly, or non-increasing when the
// sort need not be stable): one parallel reversal. Each check stops at its first misfit, so
// on unordered input both cost a few comparisons.
template <class It, class C>
bool sorted_shortcut(It a, std::size_t n, C& comp, bool stable) {
  if (first_descent(a, n, comp) == n - 1) return true;
  const std::size_t desc = first_index<groups_elements<It>>(n - 1, [&](std::size_t i) {
    return static_cast<bool>(stable ? !comp(*algo::advance(a, i + 1), *algo::advance(a, i))
                                    : comp(*algo::advance(a, i), *algo::advance(a, i + 1)));
  });
  if (desc != n - 1) return false;
  for_blocks(n / 2, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) std::iter_swap(algo::advance(a, i), algo::advance(a, n - 1 - i));
  });
  return true;
}

// The sort by comp on proj on the calling thread: the sequential policies, and elements whose
// moves may throw (there the parallel kernels could not keep every element exactly once).
// The guarded kernels, not std::sort / std::stable_sort, whose insertion steps run off the
// range under a comparator that is no strict weak order (docs/algorithms.md#invalid-comparators).
template <bool Stable, class It, class Comp, class Proj>
void sort_seq(It first, It last, Comp& comp, const Proj& proj) {
  projected_less<Comp, Proj> less{&comp, &proj};
  if constexpr (Stable)
    stable_sort_seq(first, last, less);
  else
    introsort(first, last, less);
}

// The parallel sort of [first, last) by comp on proj.
template <bool Stable, class It, class Comp, class Proj>
void sort_par(It first, It last, Comp& comp, const Proj& proj) {
  const std::size_t n = algo::distance(first, last);
  if (n < 2) return;
  if constexpr (radix_eligible<It, Comp, Proj>()) {
    using K = projected_key_t<It, Proj>;
    const radix_key_fn<Proj, K, (radix_order_v<Comp, K> < 0)> key{proj};
    radix_sort(std::to_address(first), n, key, Stable);
  } else if constexpr (radix_orders<It, Comp, Proj>()) {
    using K = projected_key_t<It, Proj>;
    const radix_key_fn<Proj, K, (radix_order_v<Comp, K> < 0)> key{proj};
    keyed_radix_sort(std::to_address(first), n, key, Stable);
  } else if constexpr (nothrow_movable_v<It>) {
    projected_less<Comp, Proj> less{&comp, &proj};
    if (sorted_shortcut(first, n, less, Stable)) return;
    if constexpr (Stable) {
      // One run's worth is one sequential kernel.
      if (n <= stable_run) {
        insertion_sort(first, last, less);
        return;
      }
      // Each tile has its whole length of scratch: the merges in parts (merge_runs).
      merge_sort_par(first, n, less, [&](auto f, std::size_t m, auto* scratch) {
        run_merge_sort(f, m, scratch, less, true);
      });
    } else if (weft::num_threads() == 1) {
      introsort(first, last, less);
    } else {
      // A quicksort moves each element once per level and needs no scratch; tiles and merge
      // levels would move every element once more per merge level (par_introsort.hpp).
      introsort_par(first, last, less);
    }
  } else {
    sort_seq<Stable>(first, last, comp, proj);
  }
}

}  // namespace weft::detail::algo
