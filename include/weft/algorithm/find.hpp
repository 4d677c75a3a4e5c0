// SPDX-License-Identifier: MIT
// Searches: find, find_if, find_if_not, adjacent_find, find_first_of, find_end, search,
// search_n, mismatch, equal, lexicographical_compare, all_of, any_of, none_of,
// is_partitioned, is_heap, is_heap_until.
//
// Every parallel search is an ordered search over blocks (detail::algo::find_first_block):
// the blocks right of a match already found are skipped, so a match near the front costs
// time proportional to its position. Results are the sequential algorithm's: the first
// match (the last for find_end). Predicates may run on several threads at once and, past
// the answer, on elements the sequential algorithm would not have looked at.
// Exceptions: the first exception thrown by a predicate propagates.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <type_traits>
#include <utility>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/checks.hpp"
#include "weft/execution.hpp"

namespace weft {
namespace detail::algo {

// The first position in [first, first + n) where `std_find(block_first, block_last)` finds
// something: a block search reused as is (std::find_if and the like).
template <class It, class BlockFind>
std::size_t first_found(It first, std::size_t n, const BlockFind& block_find) {
  return find_first_block(n, [&](std::size_t lo, std::size_t hi) {
    const It b = algo::advance(first, lo);
    return lo + static_cast<std::size_t>(block_find(b, algo::advance(first, hi)) - b);
  });
}

// find_if's block search (Any = false: the first position where pred holds, or n) and
// all_of, any_of and none_of's (Any = true: whether it holds somewhere; the first match any
// worker finds stops the search, any_index / any_block). Elements of a small trivially
// copyable type read through an lvalue go a group at a time (the predicate of 16 elements
// evaluated with no branch per element, so that a cheap one vectorises); others, and a
// predicate not callable on a const element, through std::find_if. std::find_if's loop is a
// compare and a branch per element, and its speed depends on where its code lands: 85 or
// 136 us for the first 500,000 int32 of a block on an AMD EPYC, the same instructions in
// another copy of the loop.
template <bool Any, class It, class Pred>
auto search_satisfying(It first, std::size_t n, Pred& pred) {
  if constexpr (groups_elements<It> && std::predicate<const Pred&, const std::iter_value_t<It>&>) {
    const auto test = [&](std::size_t i) {
      return std::invoke(std::as_const(pred), std::as_const(*algo::advance(first, i)));
    };
    if constexpr (Any)
      return any_index<true>(n, test);
    else
      return first_index<true>(n, test);
  } else {
    const auto block_find = [&](It b, It e) { return std::find_if(b, e, pred); };
    if constexpr (Any) {
      return any_block(n, [&](std::size_t lo, std::size_t hi) {
        const It e = algo::advance(first, hi);
        return block_find(algo::advance(first, lo), e) != e;
      });
    } else {
      return first_found(first, n, block_find);
    }
  }
}

template <class It, class SIt, class Pred>
constexpr void check_search() {
  check_forward<It>();
  check_forward<SIt>();
  check_predicate<Pred, std::iter_reference_t<It>, std::iter_reference_t<SIt>>();
}

// Whether the pattern [s_first, s_last) occurs at position i of the range at `first`
// (pred(element, pattern element), as std::search calls it).
template <class It, class SIt, class Pred>
struct occurs_at {
  It first;
  SIt s_first, s_last;
  Pred& pred;
  bool operator()(std::size_t i) const {
    return std::equal(s_first, s_last, detail::algo::advance(first, i),
                      [&](const auto& s, const auto& x) { return pred(x, s); });
  }
};

}  // namespace detail::algo

/// The first element of [first, last) for which `pred` holds, or `last`. O(n) calls of
/// `pred`, fewer when the match is early; no allocation.
template <execution_policy Policy, class It, class Pred>
It find_if(Policy&&, It first, It last, Pred pred) {
  detail::algo::check_forward<It>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>>();
  if constexpr (detail::algo::reads_parallel<Policy, It>) {
    return detail::algo::advance(
        first, detail::algo::search_satisfying<false>(first, detail::algo::distance(first, last), pred));
  } else {
    return std::find_if(first, last, pred);
  }
}

/// The first element of [first, last) for which `pred` does not hold, or `last`.
template <execution_policy Policy, class It, class Pred>
It find_if_not(Policy&& policy, It first, It last, Pred pred) {
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>>();
  return weft::find_if(std::forward<Policy>(policy), first, last,
                       [&pred](auto&& x) { return !std::invoke(pred, x); });
}

/// The first element of [first, last) equal to `value`, or `last`.
template <execution_policy Policy, class It, class T>
It find(Policy&& policy, It first, It last, const T& value) {
  return weft::find_if(std::forward<Policy>(policy), first, last,
                       [&value](const auto& x) { return x == value; });
}

/// True if `pred` holds for some element (false for an empty range). Unordered: the first
/// match any worker finds ends the search.
template <execution_policy Policy, class It, class Pred>
bool any_of(Policy&&, It first, It last, Pred pred) {
  detail::algo::check_forward<It>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>>();
  if constexpr (detail::algo::reads_parallel<Policy, It>)
    return detail::algo::search_satisfying<true>(first, detail::algo::distance(first, last), pred);
  else
    return std::any_of(first, last, pred);
}

/// True if `pred` holds for every element (true for an empty range).
template <execution_policy Policy, class It, class Pred>
bool all_of(Policy&& policy, It first, It last, Pred pred) {
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>>();
  return !weft::any_of(std::forward<Policy>(policy), first, last,
                       [&pred](auto&& x) { return !std::invoke(pred, x); });
}

/// True if `pred` holds for no element (true for an empty range).
template <execution_policy Policy, class It, class Pred>
bool none_of(Policy&& policy, It first, It last, Pred pred) {
  return !weft::any_of(std::forward<Policy>(policy), first, last, std::move(pred));
}

/// The first `it` with pred(*it, *(it + 1)) (default: equality), or `last`.
template <execution_policy Policy, class It, class Pred = std::equal_to<>>
It adjacent_find(Policy&&, It first, It last, Pred pred = {}) {
  detail::algo::check_forward<It>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>, std::iter_reference_t<It>>();
  if constexpr (detail::algo::reads_parallel<Policy, It>) {
    const std::size_t n = detail::algo::distance(first, last);
    if (n < 2) return last;
    const std::size_t at = detail::algo::first_index<detail::algo::groups_elements<It>>(
        n - 1, [&](std::size_t i) {
          const It a = detail::algo::advance(first, i);
          return static_cast<bool>(pred(*a, *std::next(a)));
        });
    return at == n - 1 ? last : detail::algo::advance(first, at);
  } else {
    return std::adjacent_find(first, last, pred);
  }
}

/// The first element of [first, last) equal (by `pred`) to some element of [s_first, s_last).
/// O(n * m) comparisons.
template <execution_policy Policy, class It, class SIt, class Pred = std::equal_to<>>
It find_first_of(Policy&&, It first, It last, SIt s_first, SIt s_last, Pred pred = {}) {
  detail::algo::check_forward<It>();
  detail::algo::check_forward<SIt>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>, std::iter_reference_t<SIt>>();
  if constexpr (detail::algo::reads_parallel<Policy, It>) {
    const std::size_t at = detail::algo::first_found(
        first, detail::algo::distance(first, last),
        [&](It b, It e) { return std::find_first_of(b, e, s_first, s_last, pred); });
    return detail::algo::advance(first, at);
  } else {
    return std::find_first_of(first, last, s_first, s_last, pred);
  }
}

/// The first position where [s_first, s_last) occurs in [first, last) (by `pred`); `first`
/// if the pattern is empty, `last` if it does not occur. O(n * m) comparisons at worst.
template <execution_policy Policy, class It, class SIt, class Pred = std::equal_to<>>
It search(Policy&&, It first, It last, SIt s_first, SIt s_last, Pred pred = {}) {
  detail::algo::check_search<It, SIt, Pred>();
  if constexpr (detail::algo::reads_parallel<Policy, It, SIt>) {
    const std::size_t n = detail::algo::distance(first, last);
    const std::size_t m = detail::algo::distance(s_first, s_last);
    if (m == 0) return first;
    if (m > n) return last;
    const detail::algo::occurs_at<It, SIt, Pred> occurs{first, s_first, s_last, pred};
    const std::size_t at = detail::algo::first_index<false>(n - m + 1, occurs);
    return at == n - m + 1 ? last : detail::algo::advance(first, at);
  } else {
    return std::search(first, last, s_first, s_last, pred);
  }
}

/// The last position where [s_first, s_last) occurs in [first, last); `last` if the pattern
/// is empty or does not occur.
template <execution_policy Policy, class It, class SIt, class Pred = std::equal_to<>>
It find_end(Policy&&, It first, It last, SIt s_first, SIt s_last, Pred pred = {}) {
  detail::algo::check_search<It, SIt, Pred>();
  if constexpr (detail::algo::reads_parallel<Policy, It, SIt>) {
    const std::size_t n = detail::algo::distance(first, last);
    const std::size_t m = detail::algo::distance(s_first, s_last);
    if (m == 0 || m > n) return last;
    const std::size_t starts = n - m + 1;
    const detail::algo::occurs_at<It, SIt, Pred> occurs{first, s_first, s_last, pred};
    const std::size_t at = detail::algo::find_last_block(starts, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = hi; i-- > lo;)
        if (occurs(i)) return i;
      return hi;
    });
    return at == starts ? last : detail::algo::advance(first, at);
  } else {
    return std::find_end(first, last, s_first, s_last, pred);
  }
}

/// The first position of `count` consecutive elements equal (by `pred`) to `value`; `first`
/// if count <= 0, `last` if there is none. O(n) comparisons plus O(count) per block.
template <execution_policy Policy, class It, class Size, class T, class Pred = std::equal_to<>>
It search_n(Policy&&, It first, It last, Size count, const T& value, Pred pred = {}) {
  detail::algo::check_forward<It>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It>, const T&>();
  if constexpr (detail::algo::reads_parallel<Policy, It>) {
    if (count <= Size(0)) return first;
    const std::size_t n = detail::algo::distance(first, last);
    const auto k = static_cast<std::size_t>(count);
    if (k > n) return last;
    const auto eq = [&](std::size_t i) {
      return static_cast<bool>(pred(*detail::algo::advance(first, i), value));
    };
    // A block reports the first start in it of a long enough run; runs may reach past the
    // block's end (read only). A run that began in an earlier block is that block's answer.
    const std::size_t at = detail::algo::find_first_block(n - k + 1, [&](std::size_t lo, std::size_t hi) {
      std::size_t i = lo;
      while (i < hi) {
        if (!eq(i)) {
          ++i;
          continue;
        }
        std::size_t j = i + 1;
        while (j < n && j - i < k && eq(j)) ++j;
        if (j - i == k) return i;
        i = j + 1;  // every start in (i, j] ends at the mismatch j (or at n)
      }
      return hi;
    });
    return at == n - k + 1 ? last : detail::algo::advance(first, at);
  } else {
    return std::search_n(first, last, count, value, pred);
  }
}

/// The first pair of positions where [first1, last1) and the range at first2 differ (by
/// `pred`); the shorter length bounds the search. Overloads with and without last2.
template <execution_policy Policy, class It1, class It2, class Pred = std::equal_to<>>
std::pair<It1, It2> mismatch(Policy&&, It1 first1, It1 last1, It2 first2, It2 last2,
                             Pred pred = {}) {
  detail::algo::check_forward<It1>();
  detail::algo::check_forward<It2>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It1>, std::iter_reference_t<It2>>();
  if constexpr (detail::algo::reads_parallel<Policy, It1, It2>) {
    const std::size_t n = std::min(detail::algo::distance(first1, last1),
                                   detail::algo::distance(first2, last2));
    const std::size_t at =
        detail::algo::first_index<detail::algo::groups_elements<It1, It2>>(n, [&](std::size_t i) {
      return !static_cast<bool>(
          pred(*detail::algo::advance(first1, i), *detail::algo::advance(first2, i)));
    });
    return {detail::algo::advance(first1, at), detail::algo::advance(first2, at)};
  } else {
    return std::mismatch(first1, last1, first2, last2, pred);
  }
}

template <execution_policy Policy, class It1, class It2, class Pred = std::equal_to<>>
  requires(!std::is_same_v<It2, Pred> || !std::forward_iterator<Pred>)
std::pair<It1, It2> mismatch(Policy&& policy, It1 first1, It1 last1, It2 first2, Pred pred = {}) {
  detail::algo::check_forward<It1>();
  detail::algo::check_forward<It2>();
  const auto n = std::distance(first1, last1);
  return weft::mismatch(std::forward<Policy>(policy), first1, last1, first2,
                        std::next(first2, n), std::move(pred));
}

/// True if the two ranges have equal elements (by `pred`); with last2, also equal lengths.
/// In parallel, any difference answers, so a block runs std::equal on its part of the two
/// ranges (a memcmp where the standard library uses one) and reports only whether it found one.
template <execution_policy Policy, class It1, class It2, class Pred = std::equal_to<>>
bool equal(Policy&&, It1 first1, It1 last1, It2 first2, It2 last2, Pred pred = {}) {
  detail::algo::check_forward<It1>();
  detail::algo::check_forward<It2>();
  detail::algo::check_predicate<Pred, std::iter_reference_t<It1>, std::iter_reference_t<It2>>();
  if constexpr (detail::algo::reads_parallel<Policy, It1, It2>) {
    const std::size_t n = detail::algo::distance(first1, last1);
    if (n != detail::algo::distance(first2, last2)) return false;
    // The default predicate is passed as none: only then may std::equal use memcmp.
    constexpr bool plain = std::is_same_v<Pred, std::equal_to<>> ||
                           std::is_same_v<Pred, std::equal_to<std::iter_value_t<It1>>>;
    return detail::algo::find_first_block(n, [&](std::size_t lo, std::size_t hi) {
             const It1 b = detail::algo::advance(first1, lo), e = detail::algo::advance(first1, hi);
             const It2 b2 = detail::algo::advance(first2, lo);
             bool same;
             if constexpr (plain)
               same = std::equal(b, e, b2);
             else
               same = std::equal(b, e, b2, pred);
             return same ? hi : lo;
           }) == n;
  } else {
    return std::equal(first1, last1, first2, last2, pred);
  }
}

template <execution_policy Policy, class It1, class It2, class Pred = std::equal_to<>>
  requires(!std::is_same_v<It2, Pred> || !std::forward_iterator<Pred>)
bool equal(Policy&& policy, It1 first1, It1 last1, It2 first2, Pred pred = {}) {
  detail::algo::check_forward<It1>();
  detail::algo::check_forward<It2>();
  const auto n = std::distance(first1, last1);
  return weft::equal(std::forward<Policy>(policy), first1, last1, first2, std::next(first2, n),
                     std::move(pred));
}

/// True if [first1, last1) is lexicographically less than [first2, last2) (by `comp`).
template <execution_policy Policy, class It1, class It2, class Comp = std::less<>>
bool lexicographical_compare(Policy&&, It1 first1, It1 last1, It2 first2, It2 last2,
                             Comp comp = {}) {
  detail::algo::check_forward<It1>();
  detail::algo::check_forward<It2>();
  detail::algo::check_predicate<Comp, std::iter_reference_t<It1>, std::iter_reference_t<It2>>();
  if constexpr (detail::algo::reads_parallel<Policy, It1, It2>) {
    const std::size_t n1 = detail::algo::distance(first1, last1);
    const std::size_t n2 = detail::algo::distance(first2, last2);
    const std::size_t n = std::min(n1, n2);
    const std::size_t at =
        detail::algo::first_index<detail::algo::groups_elements<It1, It2>>(n, [&](std::size_t i) {
      const auto& a = *detail::algo::advance(first1, i);
      const auto& b = *detail::algo::advance(first2, i);
      return comp(a, b) || comp(b, a);
    });
    if (at == n) return n1 < n2;
    return comp(*detail::algo::advance(first1, at), *detail::algo::advance(first2, at));
  } else {
    return std::lexicographical_compare(first1, last1, first2, last2, comp);
  }
}

/// True if every element satisfying `pred` comes before every element that does not.
template <execution_policy Policy, class It, class Pred>
bool is_partitioned(Policy&& policy, It first, It last, Pred pred) {
  const It split = weft::find_if_not(policy, first, last, pred);
  return split == last || weft::none_of(std::forward<Policy>(policy), std::next(split), last, pred);
}

/// The end of the longest prefix of [first, last) that is a max-heap under `comp`.
template <execution_policy Policy, class It, class Comp = std::less<>>
It is_heap_until(Policy&&, It first, It last, Comp comp = {}) {
  detail::algo::check_forward<It>();
  static_assert(std::random_access_iterator<It>,
                "weft::is_heap_until: heaps need random-access iterators");
  detail::algo::check_predicate<Comp, std::iter_reference_t<It>, std::iter_reference_t<It>>();
  if constexpr (detail::is_parallel_policy_v<Policy>) {
    const std::size_t n = detail::algo::distance(first, last);
    if (n < 2) return last;
    const std::size_t at = detail::algo::first_index<detail::algo::groups_elements<It>>(
        n - 1, [&](std::size_t i) {
      const std::size_t child = i + 1;
      return static_cast<bool>(comp(*detail::algo::advance(first, (child - 1) / 2),
                                    *detail::algo::advance(first, child)));
    });
    return at == n - 1 ? last : detail::algo::advance(first, at + 1);
  } else {
    return std::is_heap_until(first, last, comp);
  }
}

/// True if [first, last) is a max-heap under `comp`.
template <execution_policy Policy, class It, class Comp = std::less<>>
bool is_heap(Policy&& policy, It first, It last, Comp comp = {}) {
  return weft::is_heap_until(std::forward<Policy>(policy), first, last, std::move(comp)) == last;
}

}  // namespace weft
