// SPDX-License-Identifier: MIT
// weft::iter(r): parallel iterator pipelines. This file is the menu; each adaptor and
// consumer lives in iter/, and the other sources (range, repeat_n, ...) in iter/sources.hpp. Walkthrough: docs/plumbing.md
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <functional>
#include <optional>
#include <ranges>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/iter/by_blocks.hpp"
#include "weft/iter/chain.hpp"
#include "weft/iter/chunks.hpp"
#include "weft/iter/collect.hpp"
#include "weft/iter/compare.hpp"
#include "weft/iter/derived.hpp"
#include "weft/iter/enumerate.hpp"
#include "weft/iter/extend.hpp"
#include "weft/iter/filter.hpp"
#include "weft/iter/filter_map.hpp"
#include "weft/iter/find.hpp"
#include "weft/iter/find_map.hpp"
#include "weft/iter/flat_map.hpp"
#include "weft/iter/fold.hpp"
#include "weft/iter/for_each.hpp"
#include "weft/iter/inspect.hpp"
#include "weft/iter/interleave.hpp"
#include "weft/iter/map.hpp"
#include "weft/iter/map_init.hpp"
#include "weft/iter/minmax.hpp"
#include "weft/iter/node.hpp"
#include "weft/iter/reduce.hpp"
#include "weft/iter/repeat.hpp"
#include "weft/iter/rev.hpp"
#include "weft/iter/source.hpp"
#include "weft/iter/sources.hpp"
#include "weft/iter/split.hpp"
#include "weft/iter/step_by.hpp"
#include "weft/iter/take_any.hpp"
#include "weft/iter/take_skip.hpp"
#include "weft/iter/try_fold.hpp"
#include "weft/iter/try_for_each.hpp"
#include "weft/iter/try_reduce.hpp"
#include "weft/iter/while_some.hpp"
#include "weft/iter/zip.hpp"
#include "weft/plumbing/splitter.hpp"
#include "weft/plumbing/value.hpp"
#include "weft/try_traits.hpp"

namespace weft {

template <class Node>
class par_iter;

namespace detail {
template <class T>
constexpr bool is_par_iter = false;
template <class N>
constexpr bool is_par_iter<par_iter<N>> = true;

template <class T>
using const_ref = std::add_lvalue_reference_t<std::add_const_t<std::remove_reference_t<T>>>;
}  // namespace detail

/// A parallel pipeline over the items of a random-access range: lazy adaptors, then one
/// consumer that runs it. Built by `weft::iter(r)` or `weft::range(a, b)`.
///
/// Every callable may run on several threads at once, on different items: it must be
/// callable as const (no `mutable` lambdas) and must not race on shared state.
/// Results equal the sequential ones for associative operations; order is kept wherever it
/// is observable (to_vector, collect, partition, find_first, find_last, position_first,
/// position_last; the first failure of try_for_each, try_reduce and try_fold).
/// Exceptions: the first exception thrown by a callable propagates to the caller of the
/// consumer; the remaining work stops early; the pool stays usable.
/// Small inputs run inline on the caller, without touching the pool (docs/plumbing.md).
/// Thread safety: a pipeline is a value; run each one from one thread at a time (a consumer
/// may itself be called from inside pool tasks, nested pipelines included).
/// Allocation: building a pipeline never allocates (but an adaptor called on an lvalue
/// pipeline copies it, with any range it owns); the scalar consumers (sum, reduce,
/// count, min/max, any/all/none, find_*, position_*, for_each, try_*) allocate nothing of
/// their own; to_vector, collect and partition allocate their results. partition, and
/// to_vector after an unindexed adaptor (filter...), fill one buffer per leaf and concatenate
/// them in order; collect<C>() of another container type goes through a std::vector first.
/// Complexity: O(n) calls of the callables for n input items (fewer for the consumers that
/// stop early), plus O(leaves) splitting work; about 2 x threads leaves when undisturbed.
/// Adaptors marked [indexed] need every item's position: they are not available after
/// filter, filter_map, flat_map, fold, map_init, try_fold or while_some.
/// The adaptors composed of these (positions, zip_eq, update, fold_chunks) are in
/// iter/derived.hpp, interleave, interleave_shortest and intersperse in iter/interleave.hpp,
/// take_any, skip_any and their _while forms in iter/take_any.hpp, by_exponential_blocks and
/// by_uniform_blocks in iter/by_blocks.hpp, the lexicographic comparisons (eq, cmp, lt, ...)
/// in iter/compare.hpp.
template <class Node>
class par_iter : public detail::derived_adaptors<par_iter<Node>>,
                 public detail::interleave_adaptors<par_iter<Node>>,
                 public detail::any_adaptors<par_iter<Node>>,
                 public detail::block_adaptors<par_iter<Node>>,
                 public detail::lexicographic_compare<par_iter<Node>> {
 public:
  using node_type = Node;
  using item_type = typename Node::item_type;
  using value_type = detail::value_of<item_type>;
  static constexpr bool indexed = Node::indexed;

  explicit par_iter(Node node, plumbing::split_options opt = {})
      : node_(std::move(node)), opt_(opt) {}

  // ---- adaptors: lazy, fused, each returns a new pipeline ----------------------------

  /// Each item x becomes f(x).
  template <class F>
  auto map(F f) && {
    static_assert(detail::const_invocable<F, item_type>,
                  "weft: map(f): f must be callable as f(item) on a const f "
                  "(no mutable lambdas: it runs on several threads at once)");
    return wrap(detail::map_node<Node, F>(std::move(node_), std::move(f)));
  }
  template <class F>
  auto map(F f) const& { return par_iter(*this).map(std::move(f)); }

  /// Each item x becomes f(state, x), where `state` is a value init() made for the piece of
  /// the input being folded: once per leaf, as the leaf starts on its first item (so never
  /// for an empty input, once in all on one thread; a few times per thread otherwise, more
  /// when threads run dry and leaves split for them). A state is used by one thread at a
  /// time, for a contiguous run of items in order, and destroyed when its leaf ends. For
  /// scratch space, random-number generators, buffers: what each item would otherwise build
  /// afresh. Drops [indexed]: apply enumerate, zip, take... before it.
  template <class Init, class F>
  auto map_init(Init init, F f) && {
    require_init_and_map<Init, F>("map_init(init, f)");
    using result = std::invoke_result_t<const F&, detail::init_state_t<Init>&, item_type>;
    static_assert(!std::is_void_v<result>,
                  "weft: map_init(init, f): f must return the new item; "
                  "for side effects only, use for_each_init(init, f)");
    return wrap(detail::map_init_node<Node, Init, F>(
        std::move(node_), detail::init_and_map<Init, F>{std::move(init), std::move(f)}));
  }
  template <class Init, class F>
  auto map_init(Init init, F f) const& {
    return par_iter(*this).map_init(std::move(init), std::move(f));
  }

  /// Keeps the items for which p(item) is true.
  template <class P>
  auto filter(P p) && {
    static_assert(std::predicate<const P&, detail::const_ref<item_type>>,
                  "weft: filter(p): p must be callable as p(const item&) on a const p "
                  "and return bool");
    return wrap(detail::filter_node<Node, P>(std::move(node_), std::move(p)));
  }
  template <class P>
  auto filter(P p) const& { return par_iter(*this).filter(std::move(p)); }

  /// f(item) returns a std::optional; keeps the engaged values.
  template <class F>
  auto filter_map(F f) && {
    static_assert(detail::const_invocable<F, item_type>,
                  "weft: filter_map(f): f must be callable as f(item) on a const f");
    static_assert(detail::is_optional<std::remove_cvref_t<std::invoke_result_t<const F&, item_type>>>,
                  "weft: filter_map(f): f must return a std::optional");
    return wrap(detail::filter_map_node<Node, F>(std::move(node_), std::move(f)));
  }
  template <class F>
  auto filter_map(F f) const& { return par_iter(*this).filter_map(std::move(f)); }

  /// Each leaf folds its items with f(T, item), starting from `identity` (a T or a callable
  /// making one), into a try type R (weft::try_traits); a failure ends the leaf. Items: one
  /// R per leaf that folded an item (Rayon's try_fold), for try_reduce. Drops [indexed].
  template <class Identity, class F>
  auto try_fold(Identity identity, F f) && {
    if constexpr (detail::require_try_fold<item_type, Identity, F>())
      return wrap(detail::try_fold_node<Node, Identity, F>(
          std::move(node_), {std::move(identity), std::move(f)}));
  }
  template <class Identity, class F>
  auto try_fold(Identity identity, F f) const& {
    return par_iter(*this).try_fold(std::move(identity), std::move(f));
  }

  /// One item per leaf: the leaf's items folded in order with f(T, item) -> T from
  /// `identity` (a T or a callable making one). Then reduce, sum or collect the
  /// accumulators (Rayon's fold). How many there are depends on the split.
  template <class Identity, class F>
  auto fold(Identity identity, F f) && {
    using T = typename detail::identity_type<Identity>::type;
    static_assert(detail::const_invocable<F, T, item_type> &&
                      std::is_convertible_v<std::invoke_result_t<const F&, T, item_type>, T>,
                  "weft: fold(identity, f): f must be callable as f(T, item) on a const f and "
                  "return T, where T is the identity's type");
    return wrap(detail::fold_node<Node, Identity, F>(std::move(node_),
                                                     {std::move(identity), std::move(f)}));
  }
  template <class Identity, class F>
  auto fold(Identity identity, F f) const& {
    return par_iter(*this).fold(std::move(identity), std::move(f));
  }

  /// Items are std::optionals: the values of those before the first std::nullopt, in order.
  auto while_some() && {
    static_assert(detail::is_optional<value_type>,
                  "weft: while_some(): the items must be std::optionals");
    if constexpr (detail::is_optional<value_type>)
      return wrap(detail::while_some_node<Node>(std::move(node_)));
  }
  auto while_some() const& { return par_iter(*this).while_some(); }

  /// f(item) returns a range; its elements replace the item, in order (walked sequentially).
  template <class F>
  auto flat_map(F f) && {
    static_assert(detail::const_invocable<F, item_type>,
                  "weft: flat_map(f): f must be callable as f(item) on a const f");
    static_assert(std::ranges::input_range<std::invoke_result_t<const F&, item_type>>,
                  "weft: flat_map(f): f must return a range");
    return wrap(detail::flat_map_node<Node, F>(std::move(node_), std::move(f)));
  }
  template <class F>
  auto flat_map(F f) const& { return par_iter(*this).flat_map(std::move(f)); }

  /// Each item, itself a range, is replaced by its elements, in order: flat_map of the
  /// identity (a container item made by the pipeline has its elements moved out).
  auto flatten() && {
    static_assert(std::ranges::input_range<std::remove_reference_t<item_type>>,
                  "weft: flatten(): the items must be ranges");
    return std::move(*this).flat_map(detail::flatten_item{});
  }
  auto flatten() const& { return par_iter(*this).flatten(); }

  /// Calls f(item) for its side effect and passes the item on.
  template <class F>
  auto inspect(F f) && {
    static_assert(std::is_invocable_v<const F&, detail::const_ref<item_type>>,
                  "weft: inspect(f): f must be callable as f(const item&) on a const f");
    return wrap(detail::inspect_node<Node, F>(std::move(node_), std::move(f)));
  }
  template <class F>
  auto inspect(F f) const& { return par_iter(*this).inspect(std::move(f)); }

  /// [indexed] Each item x at position i becomes std::pair{i, x}.
  auto enumerate() && {
    require_indexed<true>();
    return wrap(detail::enumerate_node<Node>(std::move(node_)));
  }
  auto enumerate() const& { return par_iter(*this).enumerate(); }

  /// [indexed] Pairs items with those of another range or indexed pipeline; the length is
  /// the shorter of the two.
  template <class Other>
  auto zip(Other&& other) && {
    require_indexed<true>();
    auto rhs = weft_iter_of(std::forward<Other>(other));
    static_assert(decltype(rhs)::indexed,
                  "weft: zip(other): other must be indexed "
                  "(not after filter/filter_map/flat_map/fold/map_init/try_fold/while_some)");
    using rhs_node = typename decltype(rhs)::node_type;
    return wrap(detail::zip_node<Node, rhs_node>(std::move(node_), std::move(rhs.node_)));
  }
  template <class Other>
  auto zip(Other&& other) const& { return par_iter(*this).zip(std::forward<Other>(other)); }

  /// The items of this pipeline, then those of another range or pipeline; [indexed] when
  /// both are. Items are the two sides' common reference type (a reference where both sides
  /// give one to the same type). The other side's grain options are not used: this
  /// pipeline's are.
  template <class Other>
  auto chain(Other&& other) && {
    auto rhs = weft_iter_of(std::forward<Other>(other));
    using rhs_node = typename decltype(rhs)::node_type;
    static_assert(requires { typename detail::chain_item_t<Node, rhs_node>; },
                  "weft: chain(other): the items of both sides need a common type "
                  "(std::common_reference_t of the two item types)");
    return wrap(detail::chain_node<Node, rhs_node>(std::move(node_), std::move(rhs.node_)));
  }
  template <class Other>
  auto chain(Other&& other) const& { return par_iter(*this).chain(std::forward<Other>(other)); }

  /// [indexed] Consecutive runs of n items (the last may be shorter), each a random-access
  /// range: a std::span over a contiguous source. Precondition: n > 0.
  auto chunks(std::size_t n) && {
    require_indexed<true>();
    require_positive(n, "chunks(n)");
    return wrap(detail::runs_node<detail::chunks_producer, Node>(std::move(node_), n));
  }
  auto chunks(std::size_t n) const& { return par_iter(*this).chunks(n); }

  /// [indexed] Every run of n adjacent items, overlapping: items [i, i + n) for i in
  /// [0, size() - n] (none when there are fewer than n items), each as chunks(n) gives its
  /// runs. Precondition: n > 0.
  auto windows(std::size_t n) && {
    require_indexed<true>();
    require_positive(n, "windows(n)");
    return wrap(detail::runs_node<detail::windows_producer, Node>(std::move(node_), n));
  }
  auto windows(std::size_t n) const& { return par_iter(*this).windows(n); }

  /// [indexed] The first n items.
  auto take(std::size_t n) && {
    require_indexed<true>();
    return wrap(detail::take_skip_node<Node>(std::move(node_), 0, n));
  }
  auto take(std::size_t n) const& { return par_iter(*this).take(n); }

  /// [indexed] All but the first n items.
  auto skip(std::size_t n) && {
    require_indexed<true>();
    return wrap(detail::take_skip_node<Node>(std::move(node_), n, static_cast<std::size_t>(-1)));
  }
  auto skip(std::size_t n) const& { return par_iter(*this).skip(n); }

  /// [indexed] Items 0, k, 2k, ... Precondition: k > 0.
  auto step_by(std::size_t k) && {
    require_indexed<true>();
    require_positive(k, "step_by(k)");
    return wrap(detail::step_by_node<Node>(std::move(node_), k));
  }
  auto step_by(std::size_t k) const& { return par_iter(*this).step_by(k); }

  /// [indexed] The items in reverse order.
  auto rev() && {
    require_indexed<true>();
    return wrap(detail::rev_node<Node>(std::move(node_)));
  }
  auto rev() const& { return par_iter(*this).rev(); }

  // ---- grain control -----------------------------------------------------------------

  /// Never split the input into pieces shorter than n items.
  par_iter with_min_len(std::size_t n) && { return with_option(&plumbing::split_options::min_len, n); }
  par_iter with_min_len(std::size_t n) const& { return par_iter(*this).with_min_len(n); }
  /// Split the input until pieces are at most n items long (no sequential probe).
  par_iter with_max_len(std::size_t n) && { return with_option(&plumbing::split_options::max_len, n); }
  par_iter with_max_len(std::size_t n) const& { return par_iter(*this).with_max_len(n); }
  /// Fixed split tree (by length only): reductions give the same result, bit for bit, at
  /// any thread count. Leaves are with_min_len items (default 4096).
  par_iter deterministic() && {
    opt_.deterministic = true;
    return std::move(*this);
  }
  par_iter deterministic() const& { return par_iter(*this).deterministic(); }

  // ---- cancellation ------------------------------------------------------------------

  /// Stops starting work once `stop` is stopped: from then on no new block of items starts
  /// (blocks are ~4 us of work; the ones running finish), and the terminal operation returns
  /// what the blocks that ran produced: `for_each` has visited some of the items, `sum`,
  /// `count`, `reduce`, `min`... cover some of them, a search may miss a match, and a
  /// collection (`to_vector`, `collect`) holds value-initialized items where none was
  /// computed. Whether the run was cut short is the token's to say:
  /// `if (token.stop_requested())` after the call. A token stopped before the call runs
  /// nothing. Exceptions from user code propagate as without a token. Cost: one
  /// std::stop_callback registration per call; nothing per item.
  par_iter with_stop(std::stop_token stop) && {
    opt_.stop = std::move(stop);
    return std::move(*this);
  }
  par_iter with_stop(std::stop_token stop) const& {
    return par_iter(*this).with_stop(std::move(stop));
  }

  // ---- consumers: run the pipeline ---------------------------------------------------

  /// [indexed] Number of items, without running anything.
  std::size_t size() {
    require_indexed<true>();
    return node_.size();
  }

  /// Calls f(item) for every item, in no particular order.
  template <class F>
  void for_each(F f) {
    static_assert(detail::const_invocable<F, item_type>,
                  "weft: for_each(f): f must be callable as f(item) on a const f "
                  "(no mutable lambdas: it runs on several threads at once)");
    run(detail::for_each_consumer<F>{{}, &f});
  }

  /// Calls f(state, item) for every item, in no particular order, with a state made by
  /// init() once per leaf, as map_init does.
  template <class Init, class F>
  void for_each_init(Init init, F f) {
    require_init_and_map<Init, F>("for_each_init(init, f)");
    const auto call = [&f](detail::init_state_t<Init>& state, auto&& x) {
      std::invoke(f, state, std::forward<decltype(x)>(x));
      return detail::no_result{};
    };
    const auto discard = [](detail::no_result) {};
    const detail::init_and_map<const Init&, decltype(call)> fns{init, call};
    using consumer = detail::for_each_consumer<decltype(discard)>;
    run(detail::wrapping_consumer<consumer, decltype(fns), detail::map_init_folder>{
        consumer{{}, &discard}, &fns});
  }

  /// f(item) returns a try type R (weft::try_traits: bool, std::optional, expected-like):
  /// the first failure in order, or R's success; no item after a failure starts in its leaf,
  /// and leaves right of it stop as find_first's do.
  template <class F>
  auto try_for_each(F f) { return detail::try_for_each<item_type>(node_, f, opt_); }
  /// try_for_each with f(state, item) and a state per leaf, as for_each_init.
  template <class Init, class F>
  auto try_for_each_init(Init init, F f) {
    require_init_and_map<Init, F>("try_for_each_init(init, f)");
    return detail::try_for_each_init<item_type>(node_, init, f, opt_);
  }

  /// Sum of the items, as T (default: the item's value type). Floating-point sums are
  /// reassociated (several lanes per leaf, then a tree), as every parallel sum is.
  template <class T = value_type>
  T sum() {
    static_assert(std::is_constructible_v<T, item_type>,
                  "weft: sum<T>(): the items must convert to T");
    return run(detail::arithmetic_consumer<T, detail::plus_op>{});
  }
  /// Product of the items, as T.
  template <class T = value_type>
  T product() {
    static_assert(std::is_constructible_v<T, item_type>,
                  "weft: product<T>(): the items must convert to T");
    return run(detail::arithmetic_consumer<T, detail::times_op>{});
  }

  /// Folds with an associative `op(T, item) -> T` and `op(T, T) -> T`; `identity` is a
  /// value of T or a callable returning one, and must be neutral for op.
  template <class Identity, class Op>
  auto reduce(Identity identity, Op op) {
    using T = typename detail::identity_type<Identity>::type;
    static_assert(std::is_invocable_r_v<T, const Op&, T, item_type> &&
                      std::is_invocable_r_v<T, const Op&, T, T>,
                  "weft: reduce(identity, op): op must be callable as op(T, item) and op(T, T), "
                  "returning T, where T is the identity's type");
    return run(detail::reduce_consumer<T, Identity, Op>{{}, &identity, &op, &op});
  }
  /// Folds each leaf's items into an accumulator with `fold(T, item) -> T` and joins the
  /// leaves' accumulators, in order, with an associative `combine(T, T) -> T` (TBB's
  /// parallel_reduce with a separate join; Rayon's fold(...).reduce(...)). `identity` is a
  /// value of T or a callable returning one, neutral for combine; each leaf starts from it.
  template <class Identity, class Fold, class Combine>
  auto reduce(Identity identity, Fold fold, Combine combine) {
    using T = typename detail::identity_type<Identity>::type;
    static_assert(std::is_invocable_r_v<T, const Fold&, T, item_type>,
                  "weft: reduce(identity, fold, combine): fold must be callable as "
                  "fold(T, item) and return T, where T is the identity's type");
    static_assert(std::is_invocable_r_v<T, const Combine&, T, T>,
                  "weft: reduce(identity, fold, combine): combine must be callable as "
                  "combine(T, T) and return T, where T is the identity's type");
    return run(detail::reduce_consumer<T, Identity, Fold, Combine>{
        {}, &identity, &fold, &combine});
  }

  /// Folds with an associative op(V, V) -> V, without an identity: nothing for no items
  /// (Rayon's reduce_with).
  template <class Op>
  std::optional<value_type> reduce_with(Op op) {
    static_assert(std::is_invocable_r_v<value_type, const Op&, value_type, item_type> &&
                      std::is_invocable_r_v<value_type, const Op&, value_type, value_type>,
                  "weft: reduce_with(op): op must be callable as op(V, item) and op(V, V), "
                  "returning V, where V is the items' value type");
    require_items_outlive_pipeline();
    return run(detail::reduce_with_consumer<value_type, Op>{{}, &op});
  }

  /// Items are try values R: combines their values with op(T, T) -> R; the first failure in
  /// order (of an item, or of op), else a success of the result (`identity`, a T or a
  /// callable making one, neutral for op, for no items). Stops as try_for_each.
  template <class Identity, class Op>
  auto try_reduce(Identity identity, Op op) {
    return detail::try_reduce<item_type>(node_, identity, op, opt_);
  }

  /// Number of items (after filters).
  std::size_t count() { return run(detail::count_consumer{}); }

  /// The least item (the first of equals), or nothing if empty.
  std::optional<value_type> min() { return min_by(std::less<>{}); }
  /// The greatest item (the last of equals), or nothing if empty.
  std::optional<value_type> max() { return max_by(std::less<>{}); }
  /// The least item under the strict weak order `less` (the first of equals).
  template <class Cmp>
  std::optional<value_type> min_by(Cmp less) {
    require_comparator<Cmp>();
    require_items_outlive_pipeline();
    return run(detail::best_consumer<value_type, Cmp, false>{{}, &less});
  }
  /// The greatest item under `less` (the last of equals).
  template <class Cmp>
  std::optional<value_type> max_by(Cmp less) {
    require_comparator<Cmp>();
    require_items_outlive_pipeline();
    return run(detail::best_consumer<value_type, Cmp, true>{{}, &less});
  }
  /// The item with the least key(item) (the first of equals); key runs once per item.
  template <class Key>
  std::optional<value_type> min_by_key(Key key) { return best_by_key<false>(std::move(key)); }
  /// The item with the greatest key(item) (the last of equals).
  template <class Key>
  std::optional<value_type> max_by_key(Key key) { return best_by_key<true>(std::move(key)); }

  /// Whether p(item) holds for some item; stops all workers at the first match.
  template <class P>
  bool any(P p) {
    require_predicate<P>("any(p)");
    std::atomic<bool> found{false};
    return run(detail::any_match_consumer<detail::any_keeps_flag, P>{&p, &found});
  }
  /// Whether p(item) holds for every item; stops at the first counterexample.
  template <class P>
  bool all(P p) {
    require_predicate<P>("all(p)");
    return !any([&p](const auto& x) { return !static_cast<bool>(std::invoke(p, x)); });
  }
  /// Whether p(item) holds for no item; stops at the first match.
  template <class P>
  bool none(P p) { require_predicate<P>("none(p)"); return !any(std::move(p)); }

  /// Some item for which p holds (not necessarily the first); stops at the first match.
  template <class P>
  std::optional<value_type> find_any(P p) {
    require_predicate<P>("find_any(p)");
    require_items_outlive_pipeline();
    std::atomic<bool> found{false};
    return run(detail::any_match_consumer<detail::any_keeps_value<value_type>, P>{&p, &found});
  }
  /// The first item for which p holds; work right of a match is abandoned.
  template <class P>
  std::optional<value_type> find_first(P p) {
    require_predicate<P>("find_first(p)");
    require_items_outlive_pipeline();
    return detail::strip_index<value_type>(find_ordered<true>(p));
  }
  /// The last item for which p holds; work left of a match is abandoned. An indexed
  /// pipeline is searched from the end, as find_first searches from the front.
  template <class P>
  std::optional<value_type> find_last(P p) {
    require_predicate<P>("find_last(p)");
    require_items_outlive_pipeline();
    return detail::strip_index<value_type>(find_ordered<false>(p));
  }
  /// [indexed] Position of the first item for which p holds.
  template <class P>
  std::optional<std::size_t> position_first(P p) {
    require_indexed<true>();
    require_predicate<P>("position_first(p)");
    return position_ordered<true>(p);
  }
  /// [indexed] Position of the last item for which p holds; searched from the end, work
  /// left of a match is abandoned.
  template <class P>
  std::optional<std::size_t> position_last(P p) {
    require_indexed<true>();
    require_predicate<P>("position_last(p)");
    return position_ordered<false>(p);
  }
  /// [indexed] Position of some item for which p holds (not necessarily the first); stops
  /// all workers at the first match.
  template <class P>
  std::optional<std::size_t> position_any(P p) {
    require_indexed<true>();
    require_predicate<P>("position_any(p)");
    std::atomic<bool> found{false};
    return run(detail::any_match_consumer<detail::any_keeps_position, P>{&p, &found});
  }

  /// f(item) returns a std::optional: some engaged result (not necessarily the first).
  template <class F>
  auto find_map_any(F f) { return detail::find_map_any<item_type>(node_, f, opt_); }
  /// The first engaged f(item), as find_first; f may run on items past it.
  template <class F>
  auto find_map_first(F f) { return detail::find_map_ordered<item_type, true>(node_, f, opt_); }
  /// The last engaged f(item), as find_last.
  template <class F>
  auto find_map_last(F f) { return detail::find_map_ordered<item_type, false>(node_, f, opt_); }

  /// All items, in order.
  std::vector<value_type> to_vector() {
    std::vector<value_type> out;
    collect_into(out);
    return out;
  }
  /// All items, in order, into `out`, replacing what it held; its allocation is reused where
  /// it has room (Rayon's collect_into_vec): a vector filled again and again is not
  /// reallocated or faulted in again. `out` must not be read by the pipeline itself. If an
  /// item throws, `out` is left valid but with unspecified elements.
  void collect_into(std::vector<value_type>& out) {
    require_items_outlive_pipeline();
    if constexpr (indexed && std::is_default_constructible_v<value_type> &&
                  std::is_assignable_v<value_type&, item_type>) {
      detail::resize_output(out, node_.size());
      detail::collect_indexed_into<detail::algo::stream_site<Node>>(out, [&](auto c) { run(c); });
    } else {
      detail::flatten_into(run(detail::collect_pieces_consumer<value_type>{}), out);
    }
  }
  /// All items, in order, in a Container built from them (std::vector, std::deque,
  /// std::string, std::set, ...).
  template <class Container>
  Container collect() {
    if constexpr (std::is_same_v<Container, std::vector<value_type>>) {
      return to_vector();
    } else {
      auto items = to_vector();
      return Container(std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
    }
  }
  /// The items for which p holds, and the others; both in order.
  template <class P>
  std::pair<std::vector<value_type>, std::vector<value_type>> partition(P p) {
    require_predicate<P>("partition(p)");
    require_items_outlive_pipeline();
    using route = detail::partition_route<P>;
    return detail::flatten_both(run(detail::gather_two_consumer<value_type, value_type, route>{{}, {&p}}));
  }
  /// Items that are pairs, as two vectors: every item's first half, and every second half;
  /// both in order (Rayon's unzip). `iter(a).zip(b).unzip()` gives copies of a and b.
  auto unzip() {
    require_items_outlive_pipeline();
    static_assert(detail::is_pair<value_type>,
                  "weft: unzip() needs items that are std::pairs (as zip and enumerate make): "
                  "map each item to a std::pair first");
    if constexpr (detail::is_pair<value_type>) return unzip_pairs();
  }

 private:
  auto unzip_pairs() {
    using A = typename value_type::first_type;
    using B = typename value_type::second_type;
    if constexpr (indexed && std::is_default_constructible_v<A> &&
                  std::is_default_constructible_v<B> &&
                  std::is_assignable_v<A&, decltype(std::get<0>(std::declval<item_type>()))> &&
                  std::is_assignable_v<B&, decltype(std::get<1>(std::declval<item_type>()))>) {
      std::pair<std::vector<A>, std::vector<B>> out;
      detail::resize_output(out.first, node_.size());
      detail::resize_output(out.second, node_.size());
      run(detail::unzip_indexed_consumer<A, B>::into(out.first, out.second));
      return out;
    } else {
      return detail::flatten_both(run(detail::gather_two_consumer<A, B, detail::unzip_route>{}));
    }
  }

  template <class>
  friend class par_iter;
  friend struct detail::par_iter_access;

  template <class N>
  par_iter<N> wrap(N&& node) {
    return par_iter<N>(std::forward<N>(node), opt_);
  }

  template <class C>
  auto run(C c) {
    return detail::drive(node_, std::move(c), opt_);
  }

  template <class Other>
  static auto weft_iter_of(Other&& other);

  par_iter with_option(std::size_t plumbing::split_options::*field, std::size_t n) {
    opt_.*field = n;
    return std::move(*this);
  }

  template <bool Needed>
  static constexpr void require_indexed() {
    static_assert(!Needed || indexed,
                  "weft: this adaptor needs an indexed pipeline (every item's position known): "
                  "it cannot follow filter, filter_map, flat_map, fold, map_init, try_fold or "
                  "while_some; "
                  "apply it before them");
  }

  static void require_positive(std::size_t n, const char* what) {
    if (n == 0) throw std::invalid_argument(std::string("weft: ") + what + ": must be positive");
  }

  template <class Init, class F>
  static constexpr void require_init_and_map(const char*) {
    static_assert(detail::const_invocable<Init>,
                  "weft: map_init/for_each_init(init, f): init must be callable as init() on a "
                  "const init, returning the state");
    if constexpr (detail::const_invocable<Init>) {
      static_assert(std::is_object_v<std::invoke_result_t<const Init&>>,
                    "weft: map_init/for_each_init(init, f): init() must return the state by "
                    "value (not a reference, not void): each leaf gets its own");
      if constexpr (std::is_object_v<std::invoke_result_t<const Init&>>)
        static_assert(detail::const_invocable<F, detail::init_state_t<Init>&, item_type>,
                      "weft: map_init/for_each_init(init, f): f must be callable as "
                      "f(state&, item) on a const f (no mutable lambdas: keep what changes in "
                      "the state)");
    }
  }

  template <class P>
  static constexpr void require_predicate(const char*) {
    static_assert(std::predicate<const P&, detail::const_ref<item_type>>,
                  "weft: the predicate must be callable as p(const item&) on a const p and "
                  "return bool");
  }

  template <class Cmp>
  static constexpr void require_comparator() {
    static_assert(std::predicate<const Cmp&, const value_type&, const value_type&>,
                  "weft: the comparator must be callable as less(const T&, const T&) -> bool");
  }

  // The consumers that hand items out of the pipeline (to_vector, collect, min, find_first,
  // ...) refuse runs (chunks, windows) that view storage the pipeline owns: they would dangle
  // once the pipeline is gone. Consumers that use each item inside the pipeline (for_each,
  // sum, reduce, count, a map to values first) take them. docs/guide.md#items-that-view-the-pipeline
  static constexpr void require_items_outlive_pipeline() {
    static_assert(!detail::makes_owned_views<Node> || !detail::is_run_view<value_type>,
                  "weft: these items are chunks or windows that view storage the pipeline "
                  "owns (a container moved into it, or an adaptor's callable before chunks or "
                  "windows): they would dangle once the pipeline is gone, so this consumer "
                  "cannot return them. Borrow the container (weft::iter(v) on an lvalue), map "
                  "each run to a value (.map([](auto r) { return std::vector(r.begin(), "
                  "r.end()); })), or use the runs inside the pipeline (for_each, sum, reduce)");
  }

  template <bool First, class P, class V = value_type>
  auto find_ordered(P& p) {
    return detail::find_ordered<First, V>(node_, p, opt_);
  }

  template <bool First, class P>
  std::optional<std::size_t> position_ordered(P& p) {
    auto hit = find_ordered<First, P, detail::position_only>(p);
    if (!hit) return std::nullopt;
    return hit->first;
  }

  template <bool Last, class Key>
  std::optional<value_type> best_by_key(Key key) {
    static_assert(detail::const_invocable<Key, detail::const_ref<item_type>>,
                  "weft: min_by_key/max_by_key(f): f must be callable as f(const item&)");
    using K = std::remove_cvref_t<std::invoke_result_t<const Key&, detail::const_ref<item_type>>>;
    static_assert(std::totally_ordered<K>, "weft: min_by_key/max_by_key(f): keys need operator<");
    require_items_outlive_pipeline();
    using pair_t = std::pair<K, value_type>;
    auto keyed = [&key](auto&& x) {
      K k = std::invoke(key, std::as_const(x));
      return pair_t(std::move(k), value_type(std::forward<decltype(x)>(x)));
    };
    detail::key_less less;
    using best = detail::best_consumer<pair_t, detail::key_less, Last>;
    auto hit = run(detail::wrapping_consumer<best, decltype(keyed), detail::map_folder>{
        best{{}, &less}, &keyed});
    if (!hit) return std::nullopt;
    return std::move(hit->second);
  }

  Node node_;
  plumbing::split_options opt_;
};

/// A pipeline over the items of a random-access range. An lvalue is borrowed (items are
/// references into it, mutable when it is not const); an rvalue is moved into the pipeline.
/// `iter` of a pipeline is the pipeline itself. Never allocates.
template <class R>
auto iter(R&& r) {
  if constexpr (detail::is_par_iter<std::remove_cvref_t<R>>) {
    return std::remove_cvref_t<R>(std::forward<R>(r));
  } else {
    static_assert(std::ranges::random_access_range<R>,
                  "weft::iter(r): r must be a random-access range (std::vector, std::array, "
                  "std::deque, std::span, std::string, a C array, std::views::iota, ...). "
                  "For std::list, std::views::filter or another sequential range, copy it "
                  "into a std::vector first, or filter inside the pipeline: "
                  "weft::iter(v).filter(p)");
    static_assert(std::ranges::sized_range<R> ||
                      std::sized_sentinel_for<std::ranges::sentinel_t<R>, std::ranges::iterator_t<R>>,
                  "weft::iter(r): r must know its size");
    static_assert(!detail::writes_packed_bits<std::ranges::iterator_t<R>>,
                  "weft::iter(r): r is a mutable std::vector<bool>, whose elements share "
                  "words: writes from two threads would race. To read it in parallel pass "
                  "std::as_const(r); to write flags in parallel use std::vector<char> or "
                  "std::vector<std::uint8_t>");
    return par_iter<detail::range_node<R>>(detail::range_node<R>(std::forward<R>(r)));
  }
}

template <class Node>
template <class Other>
auto par_iter<Node>::weft_iter_of(Other&& other) {
  return weft::iter(std::forward<Other>(other));
}

}  // namespace weft
