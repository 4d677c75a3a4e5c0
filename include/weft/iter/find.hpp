// SPDX-License-Identifier: MIT
// Short-circuiting searches: any, all, none, find_any, find_first, find_last and the
// position_any / position_first / position_last of an indexed pipeline.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/iter/map.hpp"
#include "weft/iter/node.hpp"
#include "weft/iter/rev.hpp"
#include "weft/plumbing/search.hpp"
#include "weft/plumbing/value.hpp"

namespace weft::detail {

template <class P>
constexpr bool is_rev_producer = false;
template <class B>
constexpr bool is_rev_producer<rev_producer<B>> = true;
// A reversed producer of items from memory.
template <class P>
concept reads_memory_backwards = is_rev_producer<P> && groups_items<decltype(P::base)>;

// The first item of p[from, to) that satisfies `pred`: calls `on_hit(i, item)` for it and
// returns true, or returns false. An `on_hit` that takes no arguments asks only whether
// there is a match (`any`). Items from memory go a group at a time: the predicate of every
// item of a group is evaluated with no branch per item, so that a cheap predicate
// vectorises; then the group's first match is taken. The predicate may thus run on up to
// find_group - 1 items past the match, as it may on any item in a parallel search
// (docs/guide.md); each item is still tested once. Other producers (whose items may come
// from user code, e.g. a map) are read once per item, and the hit is handed on as read.
template <plumbing::producer P, class Pred, class OnHit>
bool scan_first(const P& p, const Pred& pred, std::size_t from, std::size_t to, OnHit&& on_hit) {
  constexpr bool locate = !std::is_invocable_v<OnHit&>;
  const auto hit = [&](std::size_t i, auto&& x) {
    if constexpr (locate)
      on_hit(i, std::forward<decltype(x)>(x));
    else
      on_hit();
  };
  std::size_t i = from;
  if constexpr (reads_memory_backwards<P> && locate) {
    // find_last of an indexed pipeline (par_iter::find_ordered): the base's items are read
    // upwards a group at a time, groups from the top; descending reads did not vectorise
    // (100 M int32 with no match: 36 ms against 19 for find_first).
    const std::size_t n = p.n;
    bool found = false;
    const auto test = [&](std::size_t k) { return std::invoke(pred, std::as_const(p.base[k])); };
    const std::size_t at = scan_groups<true>(n - to, n - from, test, found);
    if (found) {
      hit(n - 1 - at, p.base[at]);
      return true;
    }
    i = n - at;
  } else if constexpr (groups_items<P> && locate) {
    bool found = false;
    i = scan_groups(from, to, [&](std::size_t k) { return std::invoke(pred, std::as_const(p[k])); },
                    found);
    if (found) {
      hit(i, p[i]);
      return true;
    }
  } else if constexpr (groups_items<P>) {
    // `any` needs no position: one OR a group, about an instruction an item less than
    // scan_groups' flag bytes (callgrind, 100,000 int32 with no match).
    for (; to - i >= find_group; i += find_group) {
      bool any = false;
      for (std::size_t j = 0; j < find_group; ++j)
        any |= static_cast<bool>(std::invoke(pred, std::as_const(p[i + j])));
      if (any) {
        on_hit();
        return true;
      }
    }
  }
  for (; i < to; ++i) {
    decltype(auto) x = p[i];
    if (std::invoke(pred, std::as_const(x))) {
      hit(i, std::forward<decltype(x)>(x));
      return true;
    }
  }
  return false;
}

// The unordered searches (any, find_any, position_any) share one consumer: every leaf
// stops once `found` is set (S1 / S2), and they differ only in what a leaf keeps of its
// match: that there was one, the item's value, or its producer index (each consumer knows
// where its range starts: split_at moves `lo`).
struct any_keeps_flag {
  using result_type = bool;
  static constexpr bool wants_item = false;  // scan_first's OR of a group, no flag bytes
  template <class X>
  static void record(bool& hit, std::size_t, X&&) { hit = true; }
  static bool has(bool hit) { return hit; }
};
template <class V>
struct any_keeps_value {
  using result_type = std::optional<V>;
  static constexpr bool wants_item = true;
  template <class X>
  static void record(result_type& hit, std::size_t, X&& x) { hit.emplace(std::forward<X>(x)); }
  static bool has(const result_type& hit) { return hit.has_value(); }
};
struct any_keeps_position {
  using result_type = std::optional<std::size_t>;
  static constexpr bool wants_item = true;
  template <class X>
  static void record(result_type& hit, std::size_t i, X&&) { hit = i; }
  static bool has(const result_type& hit) { return hit.has_value(); }
};

template <class Keep, class Pred>
struct any_match_consumer {
  using result_type = typename Keep::result_type;
  const Pred* pred;
  std::atomic<bool>* found;
  std::size_t lo = 0;

  std::pair<any_match_consumer, any_match_consumer> split_at(std::size_t i) const {
    return {{pred, found, lo}, {pred, found, lo + i}};
  }

  struct folder {
    static constexpr bool stops_early = true;
    result_type hit;
    const Pred* pred;
    std::atomic<bool>* found;
    std::size_t lo;
    template <class X>
    void record(std::size_t i, X&& x) {
      Keep::record(hit, lo + i, std::forward<X>(x));
      found->store(true, std::memory_order_relaxed);  // S1
    }
    template <class X>
    void consume(std::size_t i, X&& x) {
      if (std::invoke(*pred, std::as_const(x))) record(i, std::forward<X>(x));
    }
    // The search loop without a per-item `done()` test: stop at the first match.
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t from, std::size_t to) {
      if constexpr (Keep::wants_item)
        scan_first(p, *pred, from, to,
                   [&](std::size_t i, auto&& x) { record(i, std::forward<decltype(x)>(x)); });
      else
        scan_first(p, *pred, from, to, [&] { record(0, true); });
    }
    bool done() const { return Keep::has(hit); }
    result_type complete() && { return std::move(hit); }
  };
  folder make_folder() const { return {result_type{}, pred, found, lo}; }
  bool full() const { return found->load(std::memory_order_relaxed); }  // S2
  result_type reduce(result_type l, result_type r) const {
    return Keep::has(l) ? std::move(l) : std::move(r);
  }
};

// What an ordered search keeps of its match besides the index: the value (find_first,
// find_last), or nothing (position_first, position_last: move-only items need no copy).
struct position_only {};

template <class V, class X>
V match_value(X&& x) {
  if constexpr (std::is_same_v<V, position_only>)
    return {};
  else
    return V(std::forward<X>(x));
}

// find_first / position_first (First = true) and find_last / position_last (First =
// false). The result carries the match's producer index and its match_value.
template <class V, class Pred, bool First>
struct find_ordered_consumer {
  using result_type = std::optional<std::pair<std::size_t, V>>;
  const Pred* pred;
  ordered_search_range<First> range;

  std::pair<find_ordered_consumer, find_ordered_consumer> split_at(std::size_t i) const {
    auto [l, r] = range.split_at(i);
    return {{pred, l}, {pred, r}};
  }

  struct folder {
    static constexpr bool stops_early = First;
    result_type hit;
    const Pred* pred;
    ordered_search_range<First> range;
    template <class X>
    void consume(std::size_t i, X&& x) {
      if (std::invoke(*pred, std::as_const(x))) {
        hit.emplace(range.lo + i, match_value<V>(std::forward<X>(x)));
        range.record(range.lo + i);
      }
    }
    template <plumbing::producer P>
      requires First
    void consume_block(const P& p, std::size_t from, std::size_t to) {
      scan_first(p, *pred, from, to, [&](std::size_t i, auto&& x) {
        hit.emplace(range.lo + i, match_value<V>(std::forward<decltype(x)>(x)));
        range.record(range.lo + i);
      });
    }
    bool done() const { return hit.has_value(); }
    result_type complete() && { return std::move(hit); }
  };
  folder make_folder() const { return {std::nullopt, pred, range}; }
  bool full() const { return range.full(); }
  result_type reduce(result_type l, result_type r) const {
    return range.keep_left(l.has_value(), r.has_value()) ? std::move(l) : std::move(r);
  }
};


// The ordered searches' driver: the first (First) or the last match of `pred` in the
// pipeline ending at `node`, as (position, V). `wrap` turns the search consumer into the one
// driven (find_map_first and find_map_last wrap it in a map stage). A pipeline that can be
// driven in reverse (all but a flat_map of forward-only ranges) is searched for its last
// match as a search for the first match of its items in reverse, so that a match near the
// end costs time in proportion to its distance from the end (at one thread too, where the
// left half would run first) and items from memory are tested a group at a time.
template <bool First, class V, class N, class Pred, class Wrap = std::identity>
auto find_ordered(N& node, const Pred& pred, const plumbing::split_options& opt,
                  const Wrap& wrap = {}) {
  constexpr std::size_t unbounded = static_cast<std::size_t>(-1);
  if constexpr (!First && drives_reversed<N>) {
    std::atomic<std::size_t> best{no_index};
    using search = find_ordered_consumer<V, Pred, true>;
    auto hit = drive_reversed(node, wrap(search{&pred, {&best, 0, unbounded}}), opt);
    if (hit) hit->first = positions_of(node) - 1 - hit->first;
    return hit;
  } else {
    std::atomic<std::size_t> best{First ? no_index : 0};
    using search = find_ordered_consumer<V, Pred, First>;
    return drive(node, wrap(search{&pred, {&best, 0, unbounded}}), opt);
  }
}

template <template <class, class> class A, template <class, class> class B>
constexpr bool same_folder = false;
template <template <class, class> class A>
constexpr bool same_folder<A, A> = true;

// The ordered search (find_ordered) for the first or last item whose fn(item), an R, matches
// `pred`; fn applied by the stage Folder (map_folder or map_init_folder). After map_folder on an
// indexed pipeline fn goes on the producer's side (mapped_node_ref), as a .map(fn) would.
template <bool First, class R, template <class, class> class Folder, class N, class Fn,
          class Pred>
auto find_ordered_through(N& node, const Fn& fn, const Pred& pred,
                          const plumbing::split_options& opt) {
  if constexpr (N::indexed && same_folder<Folder, map_folder>) {
    const returning<Fn, R> by_value{&fn};
    mapped_node_ref<N, returning<Fn, R>> mapped{&node, &by_value};
    return find_ordered<First, R>(mapped, pred, opt);
  } else {
    return find_ordered<First, R>(node, pred, opt, stage_over<Fn, Folder>{&fn});
  }
}

// The item of an ordered search's (position, item) hit.
template <class V, class Hit>
std::optional<V> strip_index(Hit&& hit) {
  if (!hit) return std::nullopt;
  return std::move(hit->second);
}

}  // namespace weft::detail
