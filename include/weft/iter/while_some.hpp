// SPDX-License-Identifier: MIT
// while_some(): items that are std::optional; the values of those before the first
// std::nullopt in order. Unindexed. Guide: docs/guide.md#fallible-pipelines
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/iter/find.hpp"
#include "weft/iter/node.hpp"
#include "weft/plumbing/consumer.hpp"
#include "weft/plumbing/splitter.hpp"

namespace weft::detail {

// The item after while_some: a reference into a borrowed optional, the value of one the
// pipeline made.
template <class Item>
using while_some_item_t =
    std::conditional_t<std::is_lvalue_reference_v<Item>, decltype(*std::declval<Item>()),
                       typename std::remove_cvref_t<Item>::value_type>;

template <class C>
struct while_some_consumer;

// Whether C.full() only ever turns true for a range that lies right of an item that decided
// C's result (find_first's consumer, the try_ consumers). Such a C may prune while_some's
// consumers too: a range it prunes lies right of a decided item, so right of the first
// std::nullopt or inside the prefix with its answer to its left. Others (find_any, any,
// find_last's CAS-max consumer) could be stopped by a match past the first std::nullopt
// that is no match of the prefix: while_some's consumer does not let them prune.
template <class C>
constexpr bool prunes_rightward = false;
template <class V, class Pred>
constexpr bool prunes_rightward<find_ordered_consumer<V, Pred, true>> = true;
template <class Inner, class Fn, template <class, class> class Folder>
constexpr bool prunes_rightward<wrapping_consumer<Inner, Fn, Folder>> = prunes_rightward<Inner>;
template <class C>
constexpr bool prunes_rightward<while_some_consumer<C>> = true;

template <class T>
struct prefix_result {
  T value;       // the inner consumer's result over the items before the first nullopt
  bool stopped;  // this piece held a std::nullopt: nothing right of it counts
};

// The prefix is exact, whatever ran in parallel: a piece that meets a std::nullopt stops and
// says so, and reduce drops everything right of a piece that stopped, in order, as
// find_first's reduce drops what lies right of its match. The first std::nullopt's position
// is shared as find_first shares its match's (ordered_search_range: CAS-min, I1-I2 of
// plumbing/search.hpp), so pieces right of it stop at their next block.
template <class C>
struct while_some_consumer {
  using result_type = prefix_result<typename C::result_type>;
  C inner;
  ordered_search_range<true> range;

  std::pair<while_some_consumer, while_some_consumer> split_at(std::size_t i) {
    auto halves = inner.split_at(i);
    auto [l, r] = range.split_at(i);
    return {{std::move(halves.first), l}, {std::move(halves.second), r}};
  }

  template <class InnerFolder>
  struct folder {
    static constexpr bool stops_early = true;
    InnerFolder inner;
    ordered_search_range<true> range;
    bool stopped = false;
    template <class X>
    void consume(std::size_t i, X&& x) {
      if (!x.has_value()) {
        stopped = true;
        range.record(range.lo + i);
      } else {
        inner.consume(i, *std::forward<X>(x));
      }
    }
    bool done() const {
      if constexpr (plumbing::folder_stops_early<InnerFolder>)
        return stopped || inner.done();
      else
        return stopped;
    }
    result_type complete() && { return {std::move(inner).complete(), stopped}; }
  };
  auto make_folder() { return folder<decltype(inner.make_folder())>{inner.make_folder(), range}; }
  bool full() const {
    if constexpr (prunes_rightward<C>)
      return range.full() || inner.full();
    else
      return range.full();
  }
  result_type reduce(result_type l, result_type r) const {
    if (l.stopped) return l;
    return {inner.reduce(std::move(l.value), std::move(r.value)), r.stopped};
  }
};

template <class Base>
class while_some_node {
 public:
  static constexpr bool indexed = false;
  using item_type = while_some_item_t<typename Base::item_type>;

  explicit while_some_node(Base base) : base_(std::move(base)) {}

  template <plumbing::consumer C>
  typename C::result_type drive(C c, const plumbing::split_options& opt) {
    constexpr std::size_t unbounded = static_cast<std::size_t>(-1);
    std::atomic<std::size_t> first_none{no_index};
    return detail::drive(base_, while_some_consumer<C>{std::move(c), {&first_none, 0, unbounded}},
                         opt)
        .value;
  }
  std::size_t positions() { return positions_of(base_); }

 private:
  Base base_;
};

}  // namespace weft::detail
