// SPDX-License-Identifier: MIT
// try_fold(identity, f): each leaf folds its items into one accumulator with f(T, item) -> R
// (a try type, weft/try_traits.hpp), stopping at its first failure; the pipeline after it
// sees one item per leaf, that leaf's last R. Unindexed. Guide: docs/guide.md#fallible-pipelines
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/iter/node.hpp"
#include "weft/plumbing/producer.hpp"
#include "weft/iter/reduce.hpp"
#include "weft/iter/try_for_each.hpp"
#include "weft/try_traits.hpp"

namespace weft::detail {

template <class Identity, class F, class R>
struct try_fold_fns {
  using result_type = R;
  using output_type = try_output_t<R>;
  Identity identity;
  F f;
};

// One accumulator per folder, as map_init has one state per folder (iter/map_init.hpp): a
// folder is one leaf's, a contiguous run of the input folded in order on one thread. It starts
// from identity() on the leaf's first item, and a failure ends the leaf (done()). On
// complete() the leaf's R goes to the next stage as one item, at the position of the last
// item folded (a failure's own position), so that an ordered consumer after it (try_reduce)
// ranks the leaves' failures by where they happened. The accumulator is assigned in place,
// item after item: an optional written whole per item (its flag a byte store, then read back
// as one 16-byte load) stalls on store forwarding, 8x the CPU time of a sum of int64.
template <class Inner, class Fns>
struct try_fold_folder : wrapping_folder<Inner, Fns> {
  using R = typename Fns::result_type;
  using T = typename Fns::output_type;
  static constexpr bool stops_early = true;
  std::optional<T> acc{};
  std::optional<R> failure{};
  std::size_t last = 0;

  template <class X>
  void consume(std::size_t i, X&& x) {
    if (!acc) acc.emplace(make_identity<T>(this->fn->identity));
    R r = std::invoke(this->fn->f, std::move(*acc), std::forward<X>(x));
    last = i;
    if (!try_succeeded(r)) [[unlikely]]
      failure.emplace(std::move(r));
    else
      assign_output(acc, std::move(r));
  }
  // Whole blocks, when this is the outermost folder: the accumulator goes through the loop
  // as a local (the items, read from memory, could alias a member), as in a hand-written fold.
  template <plumbing::producer P>
    requires std::is_move_assignable_v<T>
  void consume_block(const P& p, std::size_t lo, std::size_t hi) {
    if (lo == hi) return;
    if (!acc) acc.emplace(make_identity<T>(this->fn->identity));
    T a = std::move(*acc);
    for (std::size_t i = lo; i < hi; ++i) {
      R r = std::invoke(this->fn->f, std::move(a), p[i]);
      if (!try_succeeded(r)) [[unlikely]] {
        failure.emplace(std::move(r));
        last = i;
        return;
      }
      a = try_traits<R>::output(std::move(r));
    }
    *acc = std::move(a);
    last = hi - 1;
  }
  bool done() const { return failure.has_value(); }
  auto complete() && {
    if (failure)
      this->inner.consume(last, std::move(*failure));
    else if (acc)
      this->inner.consume(last, try_traits<R>::from_output(std::move(*acc)));
    return std::move(this->inner).complete();
  }
};

// A fresh folder per block would start a fresh accumulator per block: such pipelines run on
// the template engine, whose leaves keep one folder throughout (as map_init's do). Driven in
// reverse the leaf would fold its items last to first, so try_fold is not its own reverse.
template <class Inner, class Fns>
constexpr bool root_folds_any_block<wrapping_consumer<Inner, Fns, try_fold_folder>> = false;
template <class F, class Item>
constexpr bool folder_reverses<try_fold_folder, F, Item> = false;

template <class Identity, class F, class Item>
using try_fold_result_t = try_result_t<F, typename identity_type<Identity>::type, Item>;

// Whether try_fold(identity, f) is well formed over items of type Item; false after a
// static_assert that says why.
template <class Item, class Identity, class F>
constexpr bool require_try_fold() {
  using T0 = typename identity_type<Identity>::type;
  static_assert(const_invocable<F, T0, Item>,
                "weft: try_fold(identity, f): f must be callable as f(T, item) on a const f, "
                "where T is the identity's type (no mutable lambdas: keep what changes in T)");
  if constexpr (const_invocable<F, T0, Item>) {
    using R = try_result_t<F, T0, Item>;
    if constexpr (require_try_result<R>()) {
      using T = try_output_t<R>;
      constexpr bool closed = std::is_convertible_v<T0, T> && const_invocable<F, T, Item> &&
                              std::is_same_v<try_result_t<F, T, Item>, R>;
      static_assert(closed,
                    "weft: try_fold(identity, f): a success of f's result must carry the "
                    "accumulator's type T, which f takes back as f(T, item)");
      return closed;
    }
  }
  return false;
}

template <class Base, class Identity, class F>
using try_fold_node =
    callable_node<Base,
                  try_fold_fns<Identity, F, try_fold_result_t<Identity, F, typename Base::item_type>>,
                  try_fold_result_t<Identity, F, typename Base::item_type>, try_fold_folder>;

}  // namespace weft::detail
