// SPDX-License-Identifier: MIT
// Pipeline nodes: what `weft::iter(...)` and each adaptor build. Walkthrough: docs/plumbing.md
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/plumbing/blocks.hpp"
#include "weft/plumbing/bridge.hpp"
#include "weft/plumbing/consumer.hpp"
#include "weft/plumbing/producer.hpp"
#include "weft/plumbing/splitter.hpp"

namespace weft::detail {

// Counts of runs and positions of run boundaries, computed so that they cannot wrap around
// at the top of std::size_t (step_by(SIZE_MAX), chunks(n) over a range of 2^64 - 1 items).
// How many runs of `width` items cover `items` items (the last one may be shorter).
constexpr std::size_t runs_covering(std::size_t items, std::size_t width) noexcept {
  return items / width + (items % width != 0 ? 1 : 0);
}
// min(i * width, cap), without computing a product that wraps.
constexpr std::size_t run_start_capped(std::size_t i, std::size_t width,
                                       std::size_t cap) noexcept {
  return i > cap / width ? cap : std::min(i * width, cap);
}

// A node is one stage of a pipeline; it owns what the stage needs (the borrowed or moved-in
// source, the user's callables). Every node has `item_type` and `static constexpr bool
// indexed`. An indexed node has `size()` and `producer()`: a producer that points into the
// node, valid while the node stays where it is. An unindexed node (after filter, filter_map,
// flat_map) has `drive(consumer, options)`, which wraps the consumer and drives its base.
template <class N>
concept indexed_node = N::indexed && requires(N& n) {
  { n.size() } -> std::convertible_to<std::size_t>;
  { n.producer() } -> plumbing::producer;
};

// Whether the producers of node N point only into storage the pipeline borrows (an lvalue
// range, or nothing: iota), so that what they hand out stays valid after the pipeline is
// gone. A node that owns what its producers point at (a range moved into the pipeline, an
// adaptor's callable) has `producer_borrows_only = false`; a node that says nothing counts
// as such.
template <class N>
constexpr bool producer_borrows_only = requires { requires N::producer_borrows_only; };
// Whether a stage of the pipeline ending at N (chunks, windows) makes items that view what
// an earlier stage's producer points into while that storage is the pipeline's own: such
// items dangle once the pipeline is gone (docs/guide.md#items-that-view-the-pipeline).
template <class N>
constexpr bool makes_owned_views = requires { requires N::makes_owned_views; };

// A consumer adaptor that wraps an inner consumer: filter, map after filter, flat_map...
// `Make` turns (inner folder) into the adaptor's folder.
template <class Inner, class Fn, template <class, class> class Folder>
struct wrapping_consumer {
  using result_type = typename Inner::result_type;
  Inner inner;
  const Fn* fn;

  std::pair<wrapping_consumer, wrapping_consumer> split_at(std::size_t i) {
    auto [l, r] = inner.split_at(i);
    return {wrapping_consumer{std::move(l), fn}, wrapping_consumer{std::move(r), fn}};
  }
  auto make_folder() { return Folder<decltype(inner.make_folder()), Fn>{inner.make_folder(), fn}; }
  bool full() const { return inner.full(); }
  result_type reduce(result_type l, result_type r) const {
    return inner.reduce(std::move(l), std::move(r));
  }
};

// Wraps a consumer in the stage that applies `fn` to each item with Folder: what a consumer
// that maps the items itself (find_map_first, try_for_each) hands the engine.
template <class Fn, template <class, class> class Folder>
struct stage_over {
  const Fn* fn;
  template <class C>
  wrapping_consumer<C, Fn, Folder> operator()(C c) const {
    return {std::move(c), fn};
  }
};

// Whether a fresh folder of consumer C is right for any block [lo, hi) of the producer C
// was given: so when C's halves are copies of it whatever the cut (its leaves are then
// independent folds of blocks), or when C says so (to_vector's consumer writes item i to
// out[i]). That is what the compiled engine runs (bridge_compiled).
template <class C>
constexpr bool root_folds_any_block =
    std::is_base_of_v<splittable_by_copy<C>, C> || requires { requires C::root_folds_any_block; };
template <class Inner, class Fn, template <class, class> class Folder>
constexpr bool root_folds_any_block<wrapping_consumer<Inner, Fn, Folder>> =
    root_folds_any_block<Inner>;

// A pipeline that libweft's engine can run (plumbing/blocks.hpp): a fresh folder of its
// consumer folds any block, never stops early, and its result is nothing (for_each,
// to_vector) or a type the engine reduces (the integers, float, double: sum, product, count,
// reduce), after any adaptors.
template <class C>
concept compiled_fold =
    root_folds_any_block<C> &&
    !plumbing::folder_stops_early<decltype(std::declval<C&>().make_folder())> &&
    (std::same_as<typename C::result_type, no_result> ||
     requires(std::size_t n, const algo::reduce_blocks_consumer<typename C::result_type>& rc,
              const plumbing::split_options& opt) { algo::run_blocks(n, rc, opt); });

// Runs such a pipeline on the compiled engine: the call site compiles its leaf loop (`fold`:
// a fresh folder of `c` over [lo, hi)) and a call, not the engine, which is ~10 KB of code
// per pipeline type (docs/plumbing.md, "What one call site compiles"). The blocks' results
// are combined left to right with the consumer's reduce, as leaves' were.
template <plumbing::producer P, plumbing::consumer C>
typename C::result_type bridge_compiled(const P& p, const C& c,
                                        const plumbing::split_options& opt) {
  using T = typename C::result_type;
  const auto fold = [&p, &c](std::size_t lo, std::size_t hi) -> T {
    C local = c;
    auto f = local.make_folder();
    plumbing::fold_block(p, f, lo, hi);
    return std::move(f).complete();
  };
  if constexpr (std::same_as<T, no_result>) {
    algo::for_blocks(p.size(), [&fold](std::size_t lo, std::size_t hi) { fold(lo, hi); }, opt);
    return {};
  } else {
    const auto combine = [&c](T l, T r) -> T { return c.reduce(std::move(l), std::move(r)); };
    std::optional<T> r = algo::reduce_blocks<T>(p.size(), fold, combine, opt);
    return r ? std::move(*r) : fold(0, 0);  // empty: the identity
  }
}

// Runs the pipeline ending at `node` into consumer `c`. A producer with long items
// (plumbing::has_long_items) takes the template engine, whose forks it changes.
template <class N, plumbing::consumer C>
typename C::result_type drive(N& node, C c, const plumbing::split_options& opt) {
  if constexpr (!N::indexed)
    return node.drive(std::move(c), opt);
  else if constexpr (compiled_fold<C> && !plumbing::has_long_items<decltype(node.producer())>)
    return bridge_compiled(node.producer(), c, opt);
  else
    return plumbing::bridge(node.producer(), std::move(c), opt);
}

// Base of the folders that wrap an inner folder.
template <class InnerFolder, class Fn>
struct wrapping_folder {
  static constexpr bool stops_early = plumbing::folder_stops_early<InnerFolder>;
  InnerFolder inner;
  const Fn* fn;
  bool done() const
    requires stops_early
  {
    return inner.done();
  }
  auto complete() && { return std::move(inner).complete(); }
};

// Whether the pipeline ending at node N can be driven over its positions in reverse
// (drive_reversed): an indexed one, through rev_producer; an unindexed one when every stage
// after its indexed base can hand on its items in reverse (reversed_folder) and every
// chain's sides can.
template <class N>
constexpr bool drives_reversed = N::indexed || requires { requires N::reversible; };

// How many positions the consumer of the pipeline ending at node N spans: its items when
// it is indexed, its indexed base's otherwise.
template <class N>
std::size_t positions_of(N& node) {
  if constexpr (N::indexed)
    return node.size();
  else
    return node.positions();
}

template <class P>
struct rev_producer;  // iter/rev.hpp

// Runs the pipeline ending at `node` into consumer `c` over the pipeline's positions
// mirrored: position i of the consumer is position positions - 1 - i of the pipeline, so a
// consumer that goes left to right (a search for the first match) meets the last items
// first. An unindexed node wraps the consumer as drive does and drives its base reversed,
// down to the indexed base, whose producer is read through rev_producer.
template <class N, plumbing::consumer C>
  requires drives_reversed<N>
typename C::result_type drive_reversed(N& node, C c, const plumbing::split_options& opt) {
  if constexpr (N::indexed) {
    using reversed = rev_producer<decltype(node.producer())>;
    return plumbing::bridge(reversed::of(node.producer()), std::move(c), opt);
  } else {
    return node.drive_reversed(std::move(c), opt);
  }
}

// The folder a stage uses when the pipeline is driven in reverse, and whether it has one for
// items of type Item. A stage that turns an item into at most one (filter, filter_map, map,
// inspect, map_init) is its own reverse. flat_map walks each item's inner range from the
// back, which needs a bidirectional range (iter/flat_map.hpp).
template <template <class, class> class Folder>
struct reversed_folder {
  template <class Inner, class F>
  using type = Folder<Inner, F>;
};
template <template <class, class> class Folder, class F, class Item>
constexpr bool folder_reverses = true;

// Marks a stage that drops items, so has no producer: filter, filter_map, flat_map.
template <class P, class F>
struct no_producer;
template <template <class, class> class Producer>
constexpr bool drops_items = false;
// Inline: a full specialization is a variable, not a template, and clang gives it external
// linkage (one definition per TU that includes this header otherwise).
template <>
inline constexpr bool drops_items<no_producer> = true;

// A stage that applies a user callable `F` to each item. While the pipeline is indexed and the
// stage keeps every item (map, inspect), it wraps the producer in `Producer<P, F>`; otherwise
// (filter and friends, or anything after them) it wraps the consumer's folders in
// `Folder<InnerFolder, F>`. The callable lives here; producers and folders point at it.
template <class Base, class F, class Item, template <class, class> class Folder,
          template <class, class> class Producer = no_producer>
class callable_node {
 public:
  static constexpr bool indexed = Base::indexed && !drops_items<Producer>;
  using item_type = Item;
  // Its producers and folders point at the callable it owns.
  static constexpr bool producer_borrows_only = false;
  static constexpr bool makes_owned_views = detail::makes_owned_views<Base>;

  callable_node(Base base, F f) : base_(std::move(base)), f_(std::move(f)) {}

  std::size_t size()
    requires indexed
  {
    return base_.size();
  }
  auto producer()
    requires indexed
  {
    return Producer<decltype(base_.producer()), F>{base_.producer(), &f_};
  }
  template <plumbing::consumer C>
  auto drive(C c, const plumbing::split_options& opt) {
    return detail::drive(base_, wrapping_consumer<C, F, Folder>{std::move(c), &f_}, opt);
  }
  static constexpr bool reversible =
      !indexed && drives_reversed<Base> && folder_reverses<Folder, F, typename Base::item_type>;
  template <plumbing::consumer C>
    requires reversible
  auto drive_reversed(C c, const plumbing::split_options& opt) {
    using reversed = wrapping_consumer<C, F, reversed_folder<Folder>::template type>;
    return detail::drive_reversed(base_, reversed{std::move(c), &f_}, opt);
  }
  // How many positions the consumer of an unindexed stage spans: its indexed base's items.
  std::size_t positions()
    requires(!indexed)
  {
    return positions_of(base_);
  }

 private:
  Base base_;
  F f_;
};

template <class T>
constexpr bool is_optional = false;
template <class T>
constexpr bool is_optional<std::optional<T>> = true;

template <class F, class... Args>
constexpr bool const_invocable = std::is_invocable_v<const F&, Args...>;

// How the bases of par_iter that live in files of their own (iter/derived.hpp,
// iter/interleave.hpp, iter/take_any.hpp) reach its node and its private wrap and run:
// par_iter befriends this one struct.
struct par_iter_access {
  template <class P>
  static auto& node(P& p) { return p.node_; }
  template <class P, class N>
  static auto wrap(P& p, N&& n) { return p.wrap(std::forward<N>(n)); }
  template <class P, class C>
  static auto run(P& p, C c) { return p.run(std::move(c)); }
};

}  // namespace weft::detail
