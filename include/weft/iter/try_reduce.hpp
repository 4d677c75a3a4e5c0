// SPDX-License-Identifier: MIT
// try_reduce(identity, op): the items are try values R (weft/try_traits.hpp); their outputs
// are combined with op(T, T) -> R until the first failure in order, which is returned.
// Guide: docs/guide.md#fallible-pipelines
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/iter/find.hpp"
#include "weft/iter/node.hpp"
#include "weft/iter/reduce.hpp"
#include "weft/iter/try_for_each.hpp"
#include "weft/plumbing/splitter.hpp"
#include "weft/try_traits.hpp"

namespace weft::detail {

// An item as an R that may be moved from: the item itself when the pipeline made it, a copy
// of a borrowed one.
template <class R, class X>
R&& owned_try(X&& x, std::optional<R>& copy) {
  if constexpr (std::is_same_v<X, R>) {
    return std::move(x);
  } else {
    copy.emplace(std::forward<X>(x));
    return std::move(*copy);
  }
}

// A piece's result: the first failure in it, else the combined outputs of its items (none
// for a piece with no items: identity() is never combined, it stands for an empty input).
// The search protocol is find_first's (plumbing/search.hpp): `range` holds the least position of a
// failure recorded so far, and a piece right of it stops (I2); reduce prefers the left
// piece's failure, so the result is the first failure in order. op's own failures count at
// the position of the last item they combine: the failing item's in a leaf, the right
// piece's last one in reduce.
template <class R, class Op>
struct try_reduce_consumer {
  using output_type = try_output_t<R>;
  struct result_type {
    std::optional<output_type> acc;
    std::optional<R> failure;
  };
  const Op* op;
  ordered_search_range<true> range;

  std::pair<try_reduce_consumer, try_reduce_consumer> split_at(std::size_t i) const {
    auto [l, r] = range.split_at(i);
    return {{op, l}, {op, r}};
  }

  // Stores the success `out` as `res`'s outputs so far, or turns `res` into a failure at
  // `pos`. The outputs are assigned in place (assign_output, iter/try_fold.hpp says why).
  static void absorb(result_type& res, R&& out, const ordered_search_range<true>& at,
                     std::size_t pos) {
    if (!try_succeeded(out)) [[unlikely]] {
      res.failure.emplace(std::move(out));
      at.record(pos);
    } else if (res.acc) {
      assign_output(res.acc, std::move(out));
    } else {
      res.acc.emplace(try_traits<R>::output(std::move(out)));
    }
  }

  struct folder {
    static constexpr bool stops_early = true;
    result_type res;
    const Op* op;
    ordered_search_range<true> range;
    template <class X>
    void consume(std::size_t i, X&& x) {
      std::optional<R> copy;
      R&& item = owned_try<R>(std::forward<X>(x), copy);
      if (!res.acc || !try_succeeded(item)) [[unlikely]] {
        absorb(res, std::move(item), range, range.lo + i);
        return;
      }
      absorb(res, std::invoke(*op, std::move(*res.acc), try_traits<R>::output(std::move(item))),
             range, range.lo + i);
    }
    bool done() const { return res.failure.has_value(); }
    result_type complete() && { return std::move(res); }
  };
  folder make_folder() const { return {{}, op, range}; }
  bool full() const { return range.full(); }
  result_type reduce(result_type l, result_type r) const {
    if (l.failure || (!r.acc && !r.failure)) return l;
    if (r.failure || !l.acc) return r;
    result_type res;
    absorb(res, std::invoke(*op, std::move(*l.acc), std::move(*r.acc)), range, range.hi - 1);
    return res;
  }
};

template <class Item, class N, class Identity, class Op>
auto try_reduce(N& node, const Identity& identity, const Op& op,
                const plumbing::split_options& opt) {
  using R = value_of<Item>;
  static_assert(try_type<R>,
                "weft: try_reduce(identity, op): the items must be try values: bool, "
                "std::optional<T>, an expected-like type (has_value(), operator*, error()) or a "
                "type weft::try_traits is specialised for (map them to one first)");
  if constexpr (try_type<R>) {
    using T = try_output_t<R>;
    static_assert(std::is_convertible_v<typename identity_type<Identity>::type, T>,
                  "weft: try_reduce(identity, op): the items are try values R, and identity "
                  "must be (or return) a value of the type T a success R carries");
    static_assert(std::is_invocable_r_v<R, const Op&, T, T>,
                  "weft: try_reduce(identity, op): op must be callable as op(T, T) and return "
                  "the items' try type R, where T is the value a success R carries");
    constexpr std::size_t unbounded = static_cast<std::size_t>(-1);
    std::atomic<std::size_t> first_failure{no_index};
    auto res = drive(node, try_reduce_consumer<R, Op>{&op, {&first_failure, 0, unbounded}}, opt);
    if (res.failure) return std::move(*res.failure);
    if (res.acc) return try_traits<R>::from_output(std::move(*res.acc));
    return try_traits<R>::from_output(make_identity<T>(identity));
  }
}

}  // namespace weft::detail
