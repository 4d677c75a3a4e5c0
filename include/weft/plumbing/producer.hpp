// SPDX-License-Identifier: MIT
// Producers: the indexed, splittable side of a pipeline. Walkthrough: docs/plumbing.md
#pragma once

#include <compare>
#include <concepts>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace weft::plumbing {

/// An indexed producer is a cheap, copyable handle on `size()` items that can be read in
/// any order and cut into sub-producers. Every source and every index-preserving adaptor
/// (map, enumerate, zip, rev, ...) is one; the splitting engine only ever cuts producers.
///   p.size()        number of items
///   p[i]            item i, 0 <= i < size(); may return a reference or a value
///   p.slice(lo, hi) the producer of items [lo, hi), re-indexed from 0
/// A producer never owns the data: it points into storage that outlives the operation.
/// Reading distinct indices from several threads at once must be safe.
template <class P>
concept producer = std::copy_constructible<P> && requires(const P& p, std::size_t i) {
  { p.size() } -> std::convertible_to<std::size_t>;
  p[i];
  { p.slice(i, i) } -> std::same_as<P>;
};

template <class P>
using item_t = decltype(std::declval<const P&>()[std::size_t{}]);

/// Optional refinement: a producer of signed integers that can tell, at run time, that every
/// item it holds is >= 0 (`weft::range(0, n)`, a `map` over it) offers
///   p.items_nonnegative()   true when that holds for all of [0, size())
///   p.nonnegative_form()    a producer of the same items whose `operator[]` tells the
///                           compiler so
/// and the leaf loop runs on the second form when the first says yes. A plain loop
/// `for (std::int64_t x = 0; x < n; ++x)` carries that knowledge for free; without it
/// `x % 3` on a signed type pays a sign fix-up per item, which halves the speed of a loop
/// the compiler vectorises (`range(0, n).filter(x % 3 == 0).count()`).
template <class P>
concept refines_nonnegative = requires(const P& p) {
  { p.items_nonnegative() } -> std::convertible_to<bool>;
  p.nonnegative_form();
};

/// Optional refinement: a producer that walks its items in order more cheaply than it
/// indexes them offers
///   p.walk(lo, hi, g)   calls g(i, p[i]) for i = lo, lo + 1, ... below hi while g returns
///                       true; returns false if g stopped it
/// and the leaf loop lets it. `weft::range` walks its items themselves under a `<` bound,
/// as a hand-written `for (x = a; x < b; ++x)` does; `map` and `inspect` over a producer that
/// walks pass its walk on, calling their function on each item. Stepping the position and
/// computing each item from it (`first + i`, then `f(first + i)`), GCC 12 keeps both live in a
/// rotated loop and copies one into the other every item: one instruction more in the seven
/// of a filtered-out item of `range(0, n).filter(x % 3 == 0).map(x * x % 7).sum()`, 5 % of
/// its time on an AMD EPYC, and 18 % more instructions than the plain loop when a map comes
/// before the filter.
template <class P>
concept walks = requires(const P& p, bool (*g)(std::size_t, item_t<P>)) {
  { p.walk(std::size_t{}, std::size_t{}, g) } -> std::same_as<bool>;
};

/// Optional refinement, the same walk downwards:
///   p.walk_back(lo, hi, g)   calls g(i, p[i]) for i = hi - 1, hi - 2, ... down to lo while
///                            g returns true; returns false if g stopped it
/// `rev()` walks its base this way, so `range(a, b).rev()` steps `for (x = b; x > a;) --x`,
/// the plain count-down loop, instead of computing `b - 1 - i` from each position.
template <class P>
concept walks_back = requires(const P& p, bool (*g)(std::size_t, item_t<P>)) {
  { p.walk_back(std::size_t{}, std::size_t{}, g) } -> std::same_as<bool>;
};

/// Calls g(i, p[i]) for i = lo, lo + 1, ... below hi while g returns true, through p's own
/// walk where it has one; returns false if g stopped it. The one item loop of every leaf.
template <class P, class G>
inline bool walk_items(const P& p, std::size_t lo, std::size_t hi, G&& g) {
  if constexpr (walks<P>) {
    return p.walk(lo, hi, g);
  } else {
    for (std::size_t i = lo; i < hi; ++i)
      if (!g(i, p[i])) return false;
    return true;
  }
}

/// Optional refinement: a producer each of whose items runs for as long as there is work
/// (par_bridge's pullers, each pulling a shared source until it is dry) declares
///   static constexpr bool long_items = true;
/// and the engine forks its halves with the right half offered to the pool at once (waking
/// a sleeping thread), not when a thread asks: an item that never returns to the engine
/// until the work is done would otherwise keep its sibling private for the whole run.
template <class P>
concept has_long_items = requires {
  requires P::long_items;
};

/// Optional refinement: a producer that is two producers end to end (`chain`) offers
///   p.front_size()                  how many of its positions the first one holds
///   p.front_part(), p.back_part()   producers of the same items at the same positions,
///                                   the first holding [0, front_size()), the second the rest
/// and fold_block folds a block's part on each side with its own loop, so that the leaf
/// never tests per item which side an item is on (and a loop over memory still vectorises).
template <class P>
concept concatenates = requires(const P& p) {
  { p.front_size() } -> std::convertible_to<std::size_t>;
  p.front_part();
  p.back_part();
};

/// A random-access iterator over a producer's items; what `chunks(n)` hands out when the
/// chunk is not a slice of a plain source.
template <producer P>
class producer_iterator {
 public:
  using iterator_concept = std::random_access_iterator_tag;
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_cvref_t<item_t<P>>;
  using difference_type = std::ptrdiff_t;
  using reference = item_t<P>;

  producer_iterator() = default;
  producer_iterator(const P* p, std::size_t i) : p_(p), i_(static_cast<difference_type>(i)) {}

  reference operator*() const { return (*p_)[static_cast<std::size_t>(i_)]; }
  reference operator[](difference_type n) const { return (*p_)[static_cast<std::size_t>(i_ + n)]; }
  producer_iterator& operator++() { ++i_; return *this; }
  producer_iterator operator++(int) { auto t = *this; ++i_; return t; }
  producer_iterator& operator--() { --i_; return *this; }
  producer_iterator operator--(int) { auto t = *this; --i_; return t; }
  producer_iterator& operator+=(difference_type n) { i_ += n; return *this; }
  producer_iterator& operator-=(difference_type n) { i_ -= n; return *this; }
  friend producer_iterator operator+(producer_iterator it, difference_type n) { return it += n; }
  friend producer_iterator operator+(difference_type n, producer_iterator it) { return it += n; }
  friend producer_iterator operator-(producer_iterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(const producer_iterator& a, const producer_iterator& b) {
    return a.i_ - b.i_;
  }
  friend bool operator==(const producer_iterator& a, const producer_iterator& b) { return a.i_ == b.i_; }
  friend auto operator<=>(const producer_iterator& a, const producer_iterator& b) { return a.i_ <=> b.i_; }

 private:
  const P* p_ = nullptr;
  difference_type i_ = 0;
};

/// A producer seen as a random-access range (owns the producer handle, not the data).
template <producer P>
class producer_range {
 public:
  explicit producer_range(P p) : p_(std::move(p)) {}
  producer_iterator<P> begin() const { return {&p_, 0}; }
  producer_iterator<P> end() const { return {&p_, p_.size()}; }
  std::size_t size() const { return p_.size(); }
  bool empty() const { return p_.size() == 0; }
  decltype(auto) operator[](std::size_t i) const { return p_[i]; }

 private:
  P p_;
};

}  // namespace weft::plumbing
