// SPDX-License-Identifier: MIT
// Consumers, folders and the leaf loop. Walkthrough: docs/plumbing.md#consumers-and-folders
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "weft/plumbing/producer.hpp"

namespace weft::plumbing {

/// A consumer turns the items of one contiguous index range of the producer into a
/// `result_type`. The splitting engine cuts it alongside the producer:
///   c.split_at(i)    consumers for [0, i) and [i, len) of this consumer's range
///   c.make_folder()  a sequential accumulator for this consumer's range
///   c.full()         true when the rest of the work cannot change the result (a match
///                    was found to the left, or the operation failed): stop early
///   c.reduce(l, r)   combines the results of the left and right halves, in that order
/// Law: a folder made from `c` that consumed exactly items [0, k) gives the same result as
/// one made from `c.split_at(k).first` (the engine relies on it after its sequential probe).
/// Indices are always producer positions: adaptors that drop items (filter) pass them on.
template <class C>
concept consumer = std::move_constructible<C> && requires(C& c, const C& cc, std::size_t i) {
  typename C::result_type;
  { c.split_at(i) } -> std::same_as<std::pair<C, C>>;
  c.make_folder();
  { cc.full() } -> std::convertible_to<bool>;
  { cc.reduce(std::declval<typename C::result_type>(), std::declval<typename C::result_type>()) }
      -> std::same_as<typename C::result_type>;
};

/// A folder accumulates items sequentially, on one thread:
///   f.consume(i, item)          item at local index i (relative to the folder's consumer)
///   f.done()                    cheap local check; only read when `stops_early` is true
///   std::move(f).complete()     the result
/// and, optionally, `f.consume_block(p, lo, hi)` to take a whole run of a producer at once
/// (the vectorised sum does; any `lo`, a multiple of `block_granule` in deterministic mode), and
/// `f.consume_if(keep, i, item)`: the same as `if (keep) f.consume(i, item)`, but without a
/// branch (count adds `keep`; integer sums add the item under a mask). A filter whose
/// predicate a CPU cannot guess (one item in three kept at random) mispredicts a branch per
/// item, which made `filter(p).count()` three to five times slower in some leaves than the
/// same count done branch-free; a filter calls `consume_if` on a folder that has it.
/// `static constexpr bool stops_early` says whether `done()` can ever become true.
/// `f.prepare()`, optional, pays a folder's fixed cost up front (map_init makes its state):
/// the engine's probe calls it on a nonempty input before it starts its clock, so that what
/// it measures is the items' cost alone.
template <class F>
constexpr bool folder_stops_early = requires { requires F::stops_early; };

template <class F>
concept folder_prepares = requires(F& f) { f.prepare(); };

template <class F, class T>
concept folds_predicated =
    requires(F& f, T&& x) { f.consume_if(true, std::size_t{}, std::forward<T>(x)); };

template <class F, class P>
concept folds_blocks = requires(F& f, const P& p, std::size_t i) { f.consume_block(p, i, i); };

/// In deterministic mode every block of a leaf but its last is a multiple of this long, so
/// that a folder with several lanes sees the same association whatever the block size.
/// (Adaptive mode makes no such promise: its association depends on timing anyway.)
inline constexpr std::size_t block_granule = 8;

}  // namespace weft::plumbing

namespace weft::detail {
template <class P, class F>
inline bool fold_items_in_place(const P& p, F& f, std::size_t lo, std::size_t hi) {
  return plumbing::walk_items(p, lo, hi, [&f](std::size_t i, auto&& x) {
    f.consume(i, std::forward<decltype(x)>(x));
    if constexpr (plumbing::folder_stops_early<F>)
      return !f.done();
    else
      return true;
  });
}

// The leaf loop. A trivially copyable folder (sums, counts, min/max, searches: everything
// but the collecting ones) runs in a local copy that is written back once: then nothing in
// the loop forces its state to memory. In place, a sum under a filter was kept in memory
// with a "was it written" flag set per kept item, because the compiler may not invent a
// store on a path where the code made none. A folder too big for registers (a map_init
// state such as a 2.5 KB random-number generator) would only be copied in and out per
// block: it stays in place.
inline constexpr std::size_t local_folder_max_bytes = 256;

template <class P, class F>
inline bool fold_items(const P& p, F& f, std::size_t lo, std::size_t hi) {
  if constexpr (std::is_trivially_copyable_v<F> && sizeof(F) <= local_folder_max_bytes) {
    F local = f;
    const bool finished = fold_items_in_place(p, local, lo, hi);
    f = local;
    return finished;
  } else {
    return fold_items_in_place(p, f, lo, hi);
  }
}

template <class P, class F>
inline bool fold_block_of(const P& p, F& f, std::size_t lo, std::size_t hi) {
  if constexpr (plumbing::folds_blocks<F, P>) {
    f.consume_block(p, lo, hi);
    if constexpr (plumbing::folder_stops_early<F>) return !f.done();
    return true;
  } else {
    return fold_items(p, f, lo, hi);
  }
}

// The stateless consumer shape shared by most terminal operations (the pipelines' and the
// algorithms'): split copies, reduce through the folder type's static `reduce`.
template <class Derived>
struct splittable_by_copy {
  std::pair<Derived, Derived> split_at(std::size_t) const {
    return {static_cast<const Derived&>(*this), static_cast<const Derived&>(*this)};
  }
};

}  // namespace weft::detail

namespace weft::plumbing {

/// Feeds items [lo, hi) of `p` to `f`; returns false if the folder said it is done. A
/// producer that can vouch for non-negative items hands the folder its refined form, to the
/// item loop and to `consume_block` alike.
template <producer P, class F>
inline bool fold_block(const P& p, F& f, std::size_t lo, std::size_t hi) {
  if constexpr (concatenates<P>) {
    const std::size_t mid = std::clamp(p.front_size(), lo, hi);
    if (lo < mid && !fold_block(p.front_part(), f, lo, mid)) return false;
    return mid >= hi || fold_block(p.back_part(), f, mid, hi);
  }
  if constexpr (refines_nonnegative<P>) {
    if (p.items_nonnegative()) return detail::fold_block_of(p.nonnegative_form(), f, lo, hi);
  }
  return detail::fold_block_of(p, f, lo, hi);
}

}  // namespace weft::plumbing
