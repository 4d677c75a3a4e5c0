// SPDX-License-Identifier: MIT
// fold(identity, f): each leaf folds its items into one accumulator with f(T, item) -> T; the
// pipeline after it sees one item per leaf, that leaf's accumulator (Rayon's fold). Unindexed:
// how many leaves there are depends on the split. Followed by a reduce, sum or collect of
// the accumulators.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/iter/node.hpp"
#include "weft/iter/reduce.hpp"
#include "weft/plumbing/producer.hpp"

namespace weft::detail {

template <class Identity, class F>
struct fold_fns {
  using output_type = typename identity_type<Identity>::type;
  Identity identity;
  F f;
};

// One accumulator per folder, started from identity() on the leaf's first item, as
// try_fold's (iter/try_fold.hpp); on complete() it goes to the next stage as one item, at the
// position of the last item folded, so that an ordered consumer after it (to_vector,
// find_first) sees the leaves in order.
template <class Inner, class Fns>
struct fold_folder : wrapping_folder<Inner, Fns> {
  using T = typename Fns::output_type;
  std::optional<T> acc{};
  std::size_t last = 0;

  template <class X>
  void consume(std::size_t i, X&& x) {
    if (!acc) acc.emplace(make_identity<T>(this->fn->identity));
    *acc = std::invoke(this->fn->f, std::move(*acc), std::forward<X>(x));
    last = i;
  }
  // Whole blocks, when this is the outermost folder: the accumulator goes through the loop
  // as a local, as in a hand-written fold.
  template <plumbing::producer P>
    requires std::is_move_assignable_v<T>
  void consume_block(const P& p, std::size_t lo, std::size_t hi) {
    if (lo == hi) return;
    if (!acc) acc.emplace(make_identity<T>(this->fn->identity));
    T a = std::move(*acc);
    for (std::size_t i = lo; i < hi; ++i) a = std::invoke(this->fn->f, std::move(a), p[i]);
    *acc = std::move(a);
    last = hi - 1;
  }
  auto complete() && {
    if (acc) this->inner.consume(last, std::move(*acc));
    return std::move(this->inner).complete();
  }
};

// As try_fold: the template engine keeps one folder per leaf, and a reversed drive would fold
// last to first.
template <class Inner, class Fns>
constexpr bool root_folds_any_block<wrapping_consumer<Inner, Fns, fold_folder>> = false;
template <class F, class Item>
constexpr bool folder_reverses<fold_folder, F, Item> = false;

template <class Base, class Identity, class F>
using fold_node = callable_node<Base, fold_fns<Identity, F>,
                                typename identity_type<Identity>::type, fold_folder>;

}  // namespace weft::detail
