// SPDX-License-Identifier: MIT
// map_init(init, f): each item x becomes f(state, x), where `state` is a value init() made
// for the piece of the input being folded (Rayon's map_init, TBB's per-body state). One state
// per folder, made on the folder's first item: a folder is one leaf's, a contiguous run of
// the input that one thread folds in order, so a state is never shared between threads, nor
// between two leaves that one thread interleaves (a nested parallel call inside f may run
// another leaf of the same pipeline on this thread: it gets its own folder and state).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/iter/map.hpp"
#include "weft/iter/node.hpp"
#include "weft/plumbing/consumer.hpp"
#include "weft/plumbing/producer.hpp"

namespace weft::detail {

template <class Init>
using init_state_t = std::remove_cvref_t<std::invoke_result_t<const Init&>>;

template <class Init, class F>
struct init_and_map {
  using state_type = init_state_t<Init>;
  Init init;
  F f;
};

// Converts to the state by calling init, so that optional::emplace constructs the state in
// place from init's prvalue: a state that cannot be moved (one holding a mutex or an atomic)
// works too.
template <class Init>
struct state_from {
  const Init* init;
  operator init_state_t<Init>() const { return std::invoke(*init); }
};

// f bound to one state: with map_producer, a block's items as f makes them from that state.
// The inner folder reads item i when it wants it, with its own block path (a floating-point
// sum's lanes) or in its item loop, and every folder reads the items of a block in increasing
// order, each once (a search may read past its answer, never back), which keeps the promise
// that a state sees its items in order.
template <class Fns>
struct call_with_state {
  const Fns* fns;
  typename Fns::state_type* state;
  template <class X>
  decltype(auto) operator()(X&& x) const {
    return std::invoke(fns->f, *state, std::forward<X>(x));
  }
};

template <class Inner, class Fns>
struct map_init_folder : wrapping_folder<Inner, Fns> {
  std::optional<typename Fns::state_type> state{};

  template <class T>
  void consume(std::size_t i, T&& x) {
    this->inner.consume(i, std::invoke(this->fn->f, ensure_state(), std::forward<T>(x)));
  }
  // Whole blocks, when this is the outermost folder: the state stays where it is and the
  // inner folder is folded as it would be after a plain map (in a local copy, in registers).
  template <plumbing::producer P>
  void consume_block(const P& p, std::size_t lo, std::size_t hi) {
    if (lo == hi) return;
    const call_with_state<Fns> call{this->fn, &ensure_state()};
    plumbing::fold_block(map_producer<P, call_with_state<Fns>>{p, &call}, this->inner, lo, hi);
  }
  // The probe makes the state before it starts its clock (when this is the outermost
  // folder, so its first item is sure to come): init's cost is the leaf's, not its items'.
  // Timed with them, a std::mt19937_64's 1.4 us made one item look like 2 us where items
  // cost 4 ns, and every call over 100 items went parallel from inside a pool.
  void prepare() { ensure_state(); }

 private:
  typename Fns::state_type& ensure_state() {
    using init_type = std::remove_cvref_t<decltype(this->fn->init)>;
    if (!state) state.emplace(state_from<init_type>{&this->fn->init});
    return *state;
  }
};

// The compiled engine folds every block of ~4 us with a fresh folder (bridge_compiled), which
// would call init once per block; pipelines with map_init run on the template engine, whose
// leaves keep one folder from their first block to their last.
template <class Inner, class Fns>
constexpr bool root_folds_any_block<wrapping_consumer<Inner, Fns, map_init_folder>> = false;

template <class Base, class Init, class F>
using map_init_node =
    callable_node<Base, init_and_map<Init, F>,
                  std::invoke_result_t<const F&, init_state_t<Init>&, typename Base::item_type>,
                  map_init_folder>;

}  // namespace weft::detail
