// SPDX-License-Identifier: MIT
// take_any(n), skip_any(n), take_any_while(p), skip_any_while(p): Rayon's adaptors that keep
// or drop items by a count or a predicate without regard to position: whichever items the
// threads reach first. Unindexed. The count or flag is shared by the run's leaves: it lives
// in the node's drive (one per run, so a pipeline run twice counts afresh) and each leaf's
// folder points at it.
//
// Protocol (the shared count or flag of one run, updated by every leaf's folder):
//   invariants: take_any passes at most n items: each passed item first wins a distinct
//   ticket below n from the count; skip_any drops exactly min(n, items) items; a
//   take_any_while / skip_any_while flag goes from false to true once and never back.
//   orderings:
//     | operation                         | ordering | why                                     |
//     |-----------------------------------|----------|-----------------------------------------|
//     | count.fetch_add(1)                | relaxed  | only the ticket's value matters: no     |
//     |                                   |          | other memory is published through it    |
//     | count.load() in done()            | relaxed  | a hint to stop early; a stale value     |
//     |                                   |          | only costs more tickets                 |
//     | flag.store(true) / flag.load()    | relaxed  | the flag orders no other data; the join |
//     |                                   |          | at the run's end synchronises results   |
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

#include "weft/iter/node.hpp"

namespace weft::detail {

enum class any_rule { take, skip, take_while, skip_while };

// What the leaves of one run share: the count (take, skip) or the flag (the _while forms:
// "a predicate failed" for take_while, "a predicate failed" meaning pass everything from now
// on for skip_while), and the limit or predicate.
template <any_rule Rule, class P>
struct any_state {
  std::size_t n;
  const P* p;
  std::atomic<std::size_t> count{0};
  std::atomic<bool> flag{false};
};

template <class Inner, class State>
struct any_folder : wrapping_folder<Inner, State> {
  static constexpr any_rule rule = State::rule;
  static constexpr bool stops_early =
      rule == any_rule::take || rule == any_rule::take_while || plumbing::folder_stops_early<Inner>;

  template <class T>
  void consume(std::size_t i, T&& x) {
    State& s = *const_cast<State*>(this->fn);
    if constexpr (rule == any_rule::take) {
      if (s.count.fetch_add(1, std::memory_order_relaxed) < s.n) this->inner.consume(i, std::forward<T>(x));
    } else if constexpr (rule == any_rule::skip) {
      if (s.count.load(std::memory_order_relaxed) >= s.n ||
          s.count.fetch_add(1, std::memory_order_relaxed) >= s.n)
        this->inner.consume(i, std::forward<T>(x));
    } else if constexpr (rule == any_rule::take_while) {
      if (s.flag.load(std::memory_order_relaxed)) return;
      if (std::invoke(*s.p, std::as_const(x)))
        this->inner.consume(i, std::forward<T>(x));
      else
        s.flag.store(true, std::memory_order_relaxed);
    } else {
      if (s.flag.load(std::memory_order_relaxed) || !std::invoke(*s.p, std::as_const(x))) {
        s.flag.store(true, std::memory_order_relaxed);
        this->inner.consume(i, std::forward<T>(x));
      }
    }
  }
  bool done() const {
    const State& s = *this->fn;
    bool over = false;
    if constexpr (rule == any_rule::take) over = s.count.load(std::memory_order_relaxed) >= s.n;
    if constexpr (rule == any_rule::take_while) over = s.flag.load(std::memory_order_relaxed);
    if constexpr (plumbing::folder_stops_early<Inner>) over = over || this->inner.done();
    return over;
  }
};

// A shared state reads as const through the wrapping folder's `fn`; its atomics are the
// protocol's, so the folder casts the const away.
template <any_rule Rule, class P>
struct any_shared : any_state<Rule, P> {
  static constexpr any_rule rule = Rule;
};

template <class Base, any_rule Rule, class P>
class any_node {
 public:
  static constexpr bool indexed = false;
  using item_type = typename Base::item_type;
  static constexpr bool producer_borrows_only = false;
  static constexpr bool makes_owned_views = detail::makes_owned_views<Base>;

  any_node(Base base, std::size_t n, P p) : base_(std::move(base)), n_(n), p_(std::move(p)) {}
  std::size_t positions() { return positions_of(base_); }
  template <plumbing::consumer C>
  typename C::result_type drive(C c, const plumbing::split_options& opt) {
    any_shared<Rule, P> shared;
    shared.n = n_;
    shared.p = &p_;
    using wrapped = wrapping_consumer<C, any_shared<Rule, P>, any_folder>;
    return detail::drive(base_, wrapped{std::move(c), &shared}, opt);
  }

 private:
  Base base_;
  std::size_t n_;
  P p_;
};

// The placeholder predicate of take_any and skip_any.
struct no_predicate {};

// The adaptors of this file, a base of par_iter (par_iter_access reaches its node).
template <class Self>
class any_adaptors {
 public:
  /// Some n items, whichever the threads reach first (all of them if there are fewer): not
  /// necessarily the first n (Rayon's take_any; `take(n)` is the ordered form). Not indexed.
  auto take_any(std::size_t n) && { return wrap_any<any_rule::take>(n, no_predicate{}); }
  auto take_any(std::size_t n) const& { return Self(self()).take_any(n); }
  /// All items but some n, whichever the threads reach first (Rayon's skip_any). Not indexed.
  auto skip_any(std::size_t n) && { return wrap_any<any_rule::skip>(n, no_predicate{}); }
  auto skip_any(std::size_t n) const& { return Self(self()).skip_any(n); }
  /// Items for which p holds, until some item fails p; items reached after that are
  /// dropped (Rayon's take_any_while: which items come before the failure depends on the
  /// threads). Not indexed.
  template <class P>
  auto take_any_while(P p) && {
    require_predicate<P>();
    return wrap_any<any_rule::take_while>(0, std::move(p));
  }
  template <class P>
  auto take_any_while(P p) const& { return Self(self()).take_any_while(std::move(p)); }
  /// Items are dropped while p holds for them; from the first item that fails p on, every
  /// item reached passes (Rayon's skip_any_while). Not indexed.
  template <class P>
  auto skip_any_while(P p) && {
    require_predicate<P>();
    return wrap_any<any_rule::skip_while>(0, std::move(p));
  }
  template <class P>
  auto skip_any_while(P p) const& { return Self(self()).skip_any_while(std::move(p)); }

 private:
  Self& self() { return static_cast<Self&>(*this); }
  const Self& self() const { return static_cast<const Self&>(*this); }

  template <class P>
  static constexpr void require_predicate() {
    using item = typename Self::item_type;
    static_assert(std::predicate<const P&, std::add_lvalue_reference_t<
                                               std::add_const_t<std::remove_reference_t<item>>>>,
                  "weft: take_any_while/skip_any_while(p): p must be callable as "
                  "p(const item&) on a const p and return bool");
  }

  template <any_rule Rule, class P>
  auto wrap_any(std::size_t n, P p) {
    using node = typename Self::node_type;
    return par_iter_access::wrap(
        self(), any_node<node, Rule, P>(std::move(par_iter_access::node(self())), n, std::move(p)));
  }
};

}  // namespace weft::detail
