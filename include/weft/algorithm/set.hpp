// SPDX-License-Identifier: MIT
// Operations on sorted ranges: includes, set_union, set_intersection, set_difference,
// set_symmetric_difference.
//
// Both inputs are cut at the same values: the engine cuts the index space of the longer
// input into blocks, and a block boundary at position p of that input becomes, in each
// input, the first element not less than the element at p (a lower_bound). Equivalent
// elements therefore never straddle a boundary, so each part of the answer is the
// sequential algorithm's answer on two sub-ranges, multiset counts included. A first pass
// counts each part's output, a second writes each part at its offset (set_operation). Each
// pass costs about what the sequential operation does, so on fewer than three threads the
// sequential std:: operation runs instead. includes is one search and always parallel.
// Exceptions: the first exception thrown by the comparator or an element's copy propagates.
// A comparator that is no strict weak order, or inputs it does not sort, cannot make the
// parallel path write outside the space the sequential one would: the cuts must tile both
// inputs and each part must write as many elements in the second pass as it counted in the
// first, or the call throws weft::invalid_comparator (both checks are free: one compare per
// part, and one per output element in a loop that already branches per element).
// Allocation: on the parallel path of the set_* operations, one small record per leaf and an
// offset table of as many entries; none for includes or on the sequential path.
// Complexity: O(n1 + n2) comparisons per pass, plus a logarithmic search per block boundary;
// the comparator runs on several threads at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "weft/algorithm/invalid_comparator.hpp"
#include "weft/kernels/blocks.hpp"
#include "weft/kernels/checks.hpp"
#include "weft/execution.hpp"
#include "weft/pool.hpp"

namespace weft {
namespace detail::algo {

// The first position in [from, n) of `first` whose element is not less than v: a galloping
// search from `from`, so that a cut close to the previous one touches only nearby memory.
template <class It, class T, class Comp>
std::size_t lower_bound_from(It first, std::size_t from, std::size_t n, const T& v,
                             const Comp& comp) {
  std::size_t step = 1, lo = from;
  while (lo + step < n && comp(*algo::advance(first, lo + step), v)) {
    lo += step;
    step *= 2;
  }
  const std::size_t hi = std::min(n, lo + step);
  return static_cast<std::size_t>(
      std::lower_bound(algo::advance(first, lo), algo::advance(first, hi), v, comp) - first);
}

// Where a cut at position `pos` of the longer input falls in both inputs: the first element
// not less than the one at `pos`, in each. `hint` is an earlier cut (at or before `pos`):
// the searches start there.
template <class It1, class It2, class Comp>
struct sorted_cutter {
  It1 first1;
  std::size_t n1;
  It2 first2;
  std::size_t n2;
  const Comp* comp;
  bool cut_first;  // the engine cuts input 1 (the longer one); else input 2

  using cut = std::pair<std::size_t, std::size_t>;
  std::size_t length() const { return cut_first ? n1 : n2; }
  cut at(std::size_t pos, cut hint = {0, 0}) const {
    if (pos == length()) return {n1, n2};
    const auto& v = cut_first ? *algo::advance(first1, pos) : *algo::advance(first2, pos);
    return {lower_bound_from(first1, hint.first, n1, v, *comp),
            lower_bound_from(first2, hint.second, n2, v, *comp)};
  }
};

template <class It1, class It2, class Comp>
sorted_cutter<It1, It2, Comp> make_cutter(It1 first1, It1 last1, It2 first2, It2 last2,
                                          const Comp& comp) {
  const std::size_t n1 = algo::distance(first1, last1), n2 = algo::distance(first2, last2);
  return {first1, n1, first2, n2, &comp, n1 >= n2};
}

// An output iterator that only counts what is written to it.
struct counting_output {
  using iterator_category = std::output_iterator_tag;
  using value_type = void;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = void;
  std::size_t* count;
  struct sink {
    std::size_t* count;
    template <class T>
    sink& operator=(T&&) {
      ++*count;
      return *this;
    }
  };
  sink operator*() const { return {count}; }
  counting_output& operator++() { return *this; }
  counting_output operator++(int) { return *this; }
};

// An output iterator that writes through `out` at most `left` times: a second pass of a set
// operation writes what its first pass counted, and a comparator whose answers changed in
// between (a random one) must not write into the next part's output or past the end.
template <class Out>
struct bounded_output {
  using iterator_category = std::output_iterator_tag;
  using value_type = void;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = void;
  Out out;
  std::size_t left;
  decltype(auto) operator*() {
    if (left == 0) throw_invalid_comparator_cold();
    return *out;
  }
  bounded_output& operator++() {
    ++out;
    --left;
    return *this;
  }
  bounded_output operator++(int) {
    bounded_output was = *this;
    ++*this;
    return was;
  }
};

// One part of a set operation's answer: the sub-ranges [s1, e1) and [s2, e2) of the inputs,
// and how many elements the operation makes of them.
struct set_part {
  std::size_t s1, e1, s2, e2, count;
};

// Pass 1 of set_operation: a leaf counts the output of its sub-ranges. A leaf's blocks come
// in order, so each block starts at the previous block's end cut and searches for its own
// end from there: no binary search over the whole input per block.
template <class Cutter, class Op>
struct set_count_consumer : splittable_by_copy<set_count_consumer<Cutter, Op>> {
  using result_type = std::vector<set_part>;
  const Cutter* cutter;
  const Op* op;

  struct folder {
    const Cutter* cutter;
    const Op* op;
    std::vector<set_part> parts;  // at most one: this leaf's

    void run(std::size_t lo, std::size_t hi) {
      typename Cutter::cut from{0, 0};  // the first leaf owns what precedes the first cut
      if (!parts.empty())
        from = {parts.back().e1, parts.back().e2};
      else if (lo != 0)
        from = cutter->at(lo);
      const auto to = cutter->at(hi, from);
      std::size_t count = 0;
      (*op)(algo::advance(cutter->first1, from.first), algo::advance(cutter->first1, to.first),
            algo::advance(cutter->first2, from.second), algo::advance(cutter->first2, to.second),
            counting_output{&count});
      if (parts.empty())
        parts.push_back({from.first, to.first, from.second, to.second, count});
      else
        parts.back() = {parts.back().s1, to.first, parts.back().s2, to.second,
                        parts.back().count + count};
    }
    void consume(std::size_t, std::size_t i) { run(i, i + 1); }
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t lo, std::size_t hi) {
      if (lo < hi) run(p[lo], p[lo] + (hi - lo));
    }
    std::vector<set_part> complete() && { return std::move(parts); }
  };
  folder make_folder() const { return {cutter, op, {}}; }
  bool full() const { return false; }
  std::vector<set_part> reduce(std::vector<set_part> l, std::vector<set_part> r) const {
    l.insert(l.end(), r.begin(), r.end());
    return l;
  }
};

// Runs `op(b1, e1, b2, e2, out)` (a sequential std:: set operation) on matching sub-ranges
// of the two inputs and writes the concatenated results at d_first, in two passes: the
// engine's leaves count their output (nothing written), then the same sub-ranges run again,
// each writing at its offset. Merging is cheap next to memory traffic, so running the
// operation twice costs less than buffering each part and copying it.
template <class It1, class It2, class Out, class Comp, class Op>
Out set_operation(It1 first1, It1 last1, It2 first2, It2 last2, Out d_first, const Comp& comp,
                  const Op& op) {
  const auto cutter = make_cutter(first1, last1, first2, last2, comp);
  if (cutter.length() == 0) return d_first;  // the longer input is empty: so is the other
  const auto parts = plumbing::bridge(
      index_producer{0, cutter.length()},
      set_count_consumer<decltype(cutter), Op>{{}, &cutter, &op});
  // A leaf's first cut is searched afresh, its last from the leaf's previous cut: under a
  // strict weak order both searches give the same cut, so the parts tile the inputs.
  std::vector<std::size_t> offset(parts.size() + 1, 0);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0 && (parts[i].s1 != parts[i - 1].e1 || parts[i].s2 != parts[i - 1].e2))
      throw_invalid_comparator_cold();
    offset[i + 1] = offset[i] + parts[i].count;
  }
  for_blocks(parts.size(), [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      const set_part& p = parts[i];
      const auto end = op(algo::advance(first1, p.s1), algo::advance(first1, p.e1),
                          algo::advance(first2, p.s2), algo::advance(first2, p.e2),
                          bounded_output<Out>{algo::advance(d_first, offset[i]), p.count});
      if (end.left != 0) throw_invalid_comparator_cold();  // fewer than counted: a gap
    }
  });
  return algo::advance(d_first, offset.back());
}

}  // namespace detail::algo

/// True if the sorted range [first2, last2) is a sub-multiset of the sorted [first1, last1).
template <execution_policy Policy, class It1, class It2, class Comp = std::less<>>
bool includes(Policy&&, It1 first1, It1 last1, It2 first2, It2 last2, Comp comp = {}) {
  detail::algo::check_forward<It1>();
  detail::algo::check_forward<It2>();
  detail::algo::check_predicate<Comp, std::iter_reference_t<It1>, std::iter_reference_t<It2>>();
  if constexpr (detail::algo::reads_parallel<Policy, It1, It2>) {
    const std::size_t n1 = detail::algo::distance(first1, last1);
    const std::size_t n2 = detail::algo::distance(first2, last2);
    if (n2 > n1) return false;
    // Cut input 2 (every element of it must be matched); a failing block is a "match".
    const detail::algo::sorted_cutter<It1, It2, Comp> cut{first1, n1, first2, n2, &comp, false};
    const std::size_t bad = detail::algo::find_first_block(n2, [&](std::size_t lo, std::size_t hi) {
      using cut_t = typename decltype(cut)::cut;
      const cut_t from = lo == 0 ? cut_t{0, 0} : cut.at(lo);
      const cut_t to = cut.at(hi, from);
      const bool ok = std::includes(
          detail::algo::advance(first1, from.first), detail::algo::advance(first1, to.first),
          detail::algo::advance(first2, from.second), detail::algo::advance(first2, to.second), comp);
      return ok ? hi : lo;
    });
    return bad == n2;
  } else {
    return std::includes(first1, last1, first2, last2, comp);
  }
}

namespace detail::algo {

inline constexpr std::size_t min_threads_for_two_passes = 3;

// The checks and the dispatch every set operation shares; `seq_op` is the std:: one.
template <class Policy, class It1, class It2, class Out, class Comp, class SeqOp>
Out set_dispatch(It1 first1, It1 last1, It2 first2, It2 last2, Out d_first, const Comp& comp,
                 const SeqOp& seq_op) {
  check_forward<It1>();
  check_forward<It2>();
  check_output<Out, std::iter_reference_t<It1>, std::iter_reference_t<It2>>();
  check_predicate<Comp, std::iter_reference_t<It1>, std::iter_reference_t<It2>>();
  // Two passes that each cost about what the sequential operation costs: they pay off from
  // three threads on (measured: docs/algorithms.md#operations-on-sorted-ranges).
  if constexpr (runs_parallel<Policy, It1, It2, Out>)
    if (weft::num_threads() >= min_threads_for_two_passes)
      return set_operation(
          first1, last1, first2, last2, d_first, comp,
          [&](auto b1, auto e1, auto b2, auto e2, auto out) {
            return seq_op(b1, e1, b2, e2, out, comp);
          });
  return seq_op(first1, last1, first2, last2, d_first, comp);
}

}  // namespace detail::algo

/// The sorted union of two sorted ranges (an element present m times in one and k times in
/// the other appears max(m, k) times, the first range's copies first); returns the output's
/// end. The output must not overlap the inputs.
template <execution_policy Policy, class It1, class It2, class Out, class Comp = std::less<>>
Out set_union(Policy&&, It1 first1, It1 last1, It2 first2, It2 last2, Out d_first, Comp comp = {}) {
  return detail::algo::set_dispatch<Policy>(
      first1, last1, first2, last2, d_first, comp,
      [](auto... a) { return std::set_union(a...); });
}

/// The sorted intersection (min(m, k) copies, taken from the first range).
template <execution_policy Policy, class It1, class It2, class Out, class Comp = std::less<>>
Out set_intersection(Policy&&, It1 first1, It1 last1, It2 first2, It2 last2, Out d_first,
                     Comp comp = {}) {
  return detail::algo::set_dispatch<Policy>(
      first1, last1, first2, last2, d_first, comp,
      [](auto... a) { return std::set_intersection(a...); });
}

/// The elements of the first range not in the second (max(m - k, 0) copies).
template <execution_policy Policy, class It1, class It2, class Out, class Comp = std::less<>>
Out set_difference(Policy&&, It1 first1, It1 last1, It2 first2, It2 last2, Out d_first,
                   Comp comp = {}) {
  return detail::algo::set_dispatch<Policy>(
      first1, last1, first2, last2, d_first, comp,
      [](auto... a) { return std::set_difference(a...); });
}

/// The elements in exactly one of the two ranges (|m - k| copies).
template <execution_policy Policy, class It1, class It2, class Out, class Comp = std::less<>>
Out set_symmetric_difference(Policy&&, It1 first1, It1 last1, It2 first2, It2 last2,
                             Out d_first, Comp comp = {}) {
  return detail::algo::set_dispatch<Policy>(
      first1, last1, first2, last2, d_first, comp,
      [](auto... a) { return std::set_symmetric_difference(a...); });
}

}  // namespace weft
