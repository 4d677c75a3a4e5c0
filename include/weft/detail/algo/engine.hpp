// SPDX-License-Identifier: MIT
// The engine compiled into libweft (src/algo/engine.cpp) and the two ways to reach it with a
// block function: for_blocks and reduce_blocks. The algorithms use them for their passes
// (blocks.hpp adds the block searches), and so do the pipelines whose consumer's folder can
// fold any block on its own: for_each, to_vector and the reductions (iter/node.hpp,
// compiled_fold), so that such a call site compiles its leaf loop and a call, not the engine.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>

#include "weft/detail/algo/stream_store.hpp"
#include "weft/detail/config.hpp"
#include "weft/plumbing/bridge.hpp"
#include "weft/plumbing/range_producers.hpp"
#include "weft/plumbing/value.hpp"

namespace weft::detail::algo {

using index_producer = iota_producer<std::size_t>;

// The algorithms' block functions reach the engine through a type-erased reference
// (an object pointer and a function pointer): every for_blocks call of a translation unit
// then runs one instantiation of the engine, and every reduce_blocks call one per value
// type, instead of one per call site (an engine instantiation is ~11 KB of code; a sort
// makes about ten passes). The price is one indirect call per block, and a block is ~4 us
// of work. Each block function type keeps its own learned cost (block_cost), as it would
// with an engine of its own.
template <class Sig>
class block_fn_ref;

template <class R, class... Args>
class block_fn_ref<R(Args...)> {
 public:
  template <class F>
  explicit block_fn_ref(const F& f)
      : obj_(&f), call_([](const void* obj, Args... args) -> R {
          return (*static_cast<const F*>(obj))(std::forward<Args>(args)...);
        }) {}
  R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

 private:
  const void* obj_;
  R (*call_)(const void*, Args...);
};

template <class BlockFn>
inline constinit call_site_cost block_cost{};

// What every block consumer carries for the probe: its block function type's record
// (the engine finds it through cost_record(), see plumbing::learned_cost_for).
struct carries_block_cost {
  call_site_cost* cost;
  call_site_cost* cost_record() const { return cost; }
};

// The producer's items are absolute indices, so a block [lo, hi) of a sub-producer is
// [p[lo], p[lo] + (hi - lo)) of the whole input.
struct for_blocks_consumer : carries_block_cost {
  using result_type = no_result;
  const block_fn_ref<void(std::size_t, std::size_t)>* body;

  std::pair<for_blocks_consumer, for_blocks_consumer> split_at(std::size_t) const {
    return {*this, *this};
  }

  struct folder {
    const block_fn_ref<void(std::size_t, std::size_t)>* body;
    void consume(std::size_t, std::size_t i) { (*body)(i, i + 1); }
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t lo, std::size_t hi) {
      if (lo < hi) (*body)(p[lo], p[lo] + (hi - lo));
    }
    no_result complete() && { return {}; }
  };
  folder make_folder() const { return {body}; }
  bool full() const { return false; }
  no_result reduce(no_result, no_result) const { return {}; }
};

// The engine behind a block consumer whose type does not depend on the call (for_blocks,
// the block searches, reductions to the common value types) is compiled once, into libweft
// (src/algo/engine.cpp), and reached through these functions. A call site then holds its
// block function, its learned-cost record and a call: ~0.2 KB of object code for a
// weft::for_each, against ~11.8 KB for an engine instantiation in every translation unit
// that calls one. Nothing is lost to inlining: the block function reaches the engine through a
// pointer either way. (Plain functions, not explicit instantiations of plumbing::bridge: a
// template instantiated over weft's detail types would be hidden in a shared libweft.)
using split_options = plumbing::split_options;
WEFT_API no_result run_blocks(std::size_t n, const for_blocks_consumer& c,
                             const split_options& opt);

/// Calls `body(lo, hi)` on disjoint blocks that together cover [0, n), on the current pool.
/// Blocks are in no particular order and may run at once on different threads. `opt`: a
/// pipeline's grain options (with_min_len, with_max_len, deterministic) over [0, n).
template <class Body>
void for_blocks(std::size_t n, const Body& body, const split_options& opt = {}) {
  if (n == 0) return;
  const block_fn_ref<void(std::size_t, std::size_t)> ref(body);
  if (take_small_case(block_cost<Body>, n, opt)) {
    const nested_fold nest;
    return ref(std::size_t{0}, n);
  }
  run_blocks(n, for_blocks_consumer{{&block_cost<Body>}, &ref}, opt);
}

// --- outputs written once ---------------------------------------------------------------
//
// body(lo, hi, d) writes the outputs of positions [lo, hi) at d, d + 1, ... and never reads
// them (copy, transform, fill, generate). An output that is a contiguous array of a trivial
// type, at least stream_min_bytes long (a smaller one is likely still cached when the caller
// reads it) and not the input itself (`in_place`: those lines are in cache already), is
// written with streaming stores a line at a time: body then produces each whole line into a
// line buffer (d is a T*), which is streamed (stream_fill; each block ends with its fence).
// A plain store to a line that is not cached reads it first: a copy moves three units of
// traffic for two of data, a fill two for one.
// Whether the streamed stores pay is the call site's record's choice (stream_record): on
// some machines plain stores are as fast.
template <class Out, class Body>
Out for_output_blocks(Out out, std::size_t n, bool in_place, const Body& body) {
  using T = std::iter_value_t<Out>;
  const auto at = [&](std::size_t i) {
    return out + static_cast<std::iter_difference_t<Out>>(i);
  };
  const auto plain = [&] {
    for_blocks(n, [&](std::size_t lo, std::size_t hi) { body(lo, hi, at(lo)); });
  };
  if constexpr (std::contiguous_iterator<Out> && line_fillable_v<T>) {
    if (!in_place) {
      run_choosing_stores_at<Body>(n * sizeof(T), [&](bool stream) {
        if (!stream) return plain();
        T* const o = std::to_address(out);
        for_blocks(n, [&](std::size_t lo, std::size_t hi) {
          stream_fill(o + lo, hi - lo, [&](T* d, std::size_t from, std::size_t to) {
            body(lo + from, lo + to, d);
          });
        });
      });
      return at(n);
    }
  }
  plain();
  return at(n);
}

template <class T>
struct reduce_blocks_consumer : carries_block_cost {
  using result_type = std::optional<T>;
  using block_fn = block_fn_ref<T(std::size_t, std::size_t)>;
  using combine_fn = block_fn_ref<T(T, T)>;
  const block_fn* block;
  const combine_fn* combine;

  std::pair<reduce_blocks_consumer, reduce_blocks_consumer> split_at(std::size_t) const {
    return {*this, *this};
  }
  struct folder {
    std::optional<T> acc;
    const block_fn* block;
    const combine_fn* combine;
    void add(T v) {
      if (acc)
        acc = (*combine)(std::move(*acc), std::move(v));
      else
        acc.emplace(std::move(v));
    }
    void consume(std::size_t, std::size_t i) { add((*block)(i, i + 1)); }
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t lo, std::size_t hi) {
      if (lo < hi) add((*block)(p[lo], p[lo] + (hi - lo)));
    }
    std::optional<T> complete() && { return std::move(acc); }
  };
  folder make_folder() const { return {std::nullopt, block, combine}; }
  bool full() const { return false; }
  std::optional<T> reduce(std::optional<T> l, std::optional<T> r) const {
    if (!l) return r;
    if (!r) return l;
    return (*combine)(std::move(*l), std::move(*r));
  }
};

// Reductions to these value types use the compiled engine (src/algo/engine.cpp): the
// counts, the index pairs of min/max_element, the arithmetic types of reduce,
// transform_reduce and the pipelines' sums. Any other type instantiates the engine where it
// is called.
WEFT_API std::optional<int> run_blocks(std::size_t n, const reduce_blocks_consumer<int>& c,
                                       const split_options& opt);
WEFT_API std::optional<unsigned> run_blocks(std::size_t n,
                                            const reduce_blocks_consumer<unsigned>& c,
                                            const split_options& opt);
WEFT_API std::optional<long> run_blocks(std::size_t n, const reduce_blocks_consumer<long>& c,
                                        const split_options& opt);
WEFT_API std::optional<unsigned long> run_blocks(std::size_t n,
                                                 const reduce_blocks_consumer<unsigned long>& c,
                                                 const split_options& opt);
WEFT_API std::optional<long long> run_blocks(std::size_t n,
                                             const reduce_blocks_consumer<long long>& c,
                                             const split_options& opt);
WEFT_API std::optional<unsigned long long> run_blocks(
    std::size_t n, const reduce_blocks_consumer<unsigned long long>& c, const split_options& opt);
WEFT_API std::optional<float> run_blocks(std::size_t n, const reduce_blocks_consumer<float>& c,
                                         const split_options& opt);
WEFT_API std::optional<double> run_blocks(std::size_t n, const reduce_blocks_consumer<double>& c,
                                          const split_options& opt);
using index_pair = std::pair<std::size_t, std::size_t>;
WEFT_API std::optional<index_pair> run_blocks(std::size_t n,
                                              const reduce_blocks_consumer<index_pair>& c,
                                              const split_options& opt);

/// Reduces [0, n): `block(lo, hi)` (lo < hi) gives one block's value, `combine(left, right)`
/// joins the values of two adjacent ranges, left first; it must be associative, need not be
/// commutative. Empty when n == 0. `opt`: the pipeline's grain options (with_min_len,
/// with_max_len, deterministic), applied to [0, n) as to the pipeline's own input.
template <class T, class Block, class Combine>
std::optional<T> reduce_blocks(std::size_t n, const Block& block, const Combine& combine,
                               const split_options& opt = {}) {
  if (n == 0) return std::nullopt;
  const typename reduce_blocks_consumer<T>::block_fn block_ref(block);
  if (take_small_case(block_cost<Block>, n, opt)) {
    const nested_fold nest;
    return block_ref(std::size_t{0}, n);
  }
  const typename reduce_blocks_consumer<T>::combine_fn combine_ref(combine);
  const reduce_blocks_consumer<T> c{{&block_cost<Block>}, &block_ref, &combine_ref};
  if constexpr (requires { run_blocks(n, c, opt); })
    return run_blocks(n, c, opt);
  else
    return plumbing::bridge(index_producer{0, n}, c, opt);
}

}  // namespace weft::detail::algo
