// SPDX-License-Identifier: MIT
// The block engine: [0, n) handed to a block function in contiguous blocks, by for_blocks,
// reduce_blocks and the block searches (find_first_block, find_last_block, any_block). The
// algorithms run their passes on it, and so do the pipelines whose consumer's folder can
// fold any block on its own: for_each, to_vector and the reductions (iter/node.hpp,
// compiled_fold), so that such a call site compiles its leaf loop and a call, not the
// engine, which is compiled into libweft (src/plumbing/blocks.cpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>

#include "weft/detail/config.hpp"
#include "weft/plumbing/bridge.hpp"
#include "weft/plumbing/range_producers.hpp"
#include "weft/plumbing/search.hpp"
#include "weft/plumbing/value.hpp"

namespace weft::detail::algo {

using index_producer = iota_producer<std::size_t>;

// The algorithms' block functions reach the engine through a type-erased reference
// (an object pointer and a function pointer): every for_blocks call of a translation unit
// then runs one instantiation of the engine, and every reduce_blocks call one per value
// type, instead of one per call site (an engine instantiation is ~11 KB of code; a sort
// makes about ten passes). The price is one indirect call per block, and a block is ~4 us
// of work. Each block function type keeps its own record (site_record<BlockFn>), as it would
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

// What every block consumer carries for the probe: its block function type's record
// (the engine finds it through cost_record(), see plumbing::learned_cost_for).
struct carries_block_cost {
  call_site_record* cost;
  call_site_record* cost_record() const { return cost; }
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
// (src/plumbing/blocks.cpp), and reached through these functions. A call site then holds its
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
  if (take_small_case(site_record<Body>, n, opt)) {
    const nested_fold nest;
    return ref(std::size_t{0}, n);
  }
  run_blocks(n, for_blocks_consumer{{&site_record<Body>}, &ref}, opt);
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

// Reductions to these value types use the compiled engine (src/plumbing/blocks.cpp): the
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
  if (take_small_case(site_record<Block>, n, opt)) {
    const nested_fold nest;
    return block_ref(std::size_t{0}, n);
  }
  const typename reduce_blocks_consumer<T>::combine_fn combine_ref(combine);
  const reduce_blocks_consumer<T> c{{&site_record<Block>}, &block_ref, &combine_ref};
  if constexpr (requires { run_blocks(n, c, opt); })
    return run_blocks(n, c, opt);
  else
    return plumbing::bridge(index_producer{0, n}, c, opt);
}

// Ordered search over blocks: iter's find_first consumer with a block function in place of a
// predicate (protocol tags S1, S2 and the range in plumbing/search.hpp). A search for the last
// match runs it over mirrored blocks (find_last_block).
struct find_blocks_consumer : carries_block_cost {
  using result_type = std::size_t;  // no_index: no match
  using block_fn = block_fn_ref<std::size_t(std::size_t, std::size_t)>;
  const block_fn* block;
  ordered_search_range<true> range;

  std::pair<find_blocks_consumer, find_blocks_consumer> split_at(std::size_t i) const {
    auto [l, r] = range.split_at(i);
    return {{{cost}, block, l}, {{cost}, block, r}};
  }

  struct folder {
    static constexpr bool stops_early = true;
    std::size_t hit;
    const block_fn* block;
    ordered_search_range<true> range;
    void look(std::size_t a, std::size_t b) {
      const std::size_t at = (*block)(a, b);
      if (at == b) return;
      hit = at;
      range.record(at);
    }
    void consume(std::size_t, std::size_t i) { look(i, i + 1); }
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t from, std::size_t to) {
      if (from < to) look(p[from], p[from] + (to - from));
    }
    bool done() const { return hit != no_index; }
    std::size_t complete() && { return hit; }
  };
  folder make_folder() const { return {no_index, block, range}; }
  bool full() const { return range.full(); }
  std::size_t reduce(std::size_t l, std::size_t r) const {
    return range.keep_left(l != no_index, r != no_index) ? l : r;
  }
};

WEFT_API std::size_t run_blocks(std::size_t n, const find_blocks_consumer& c);

/// The least index i in [0, n) where a match is, or n. `block(lo, hi)` returns the first
/// match in [lo, hi), or hi. Blocks right of a found match are skipped or cut short.
template <class Block>
std::size_t find_first_block(std::size_t n, const Block& block) {
  if (n == 0) return 0;
  const find_blocks_consumer::block_fn ref(block);
  if (take_small_case(site_record<Block>, n)) {
    const nested_fold nest;
    return ref(std::size_t{0}, n);  // n: no match
  }
  std::atomic<std::size_t> best{no_index};
  const std::size_t at =
      run_blocks(n, find_blocks_consumer{{&site_record<Block>}, &ref, {&best, 0, n}});
  return at == no_index ? n : at;
}

// Whether a search may test the elements its iterators reach a group at a time (scan_groups
// in plumbing/search.hpp): each iterator yields an lvalue of a trivially copyable type of at
// most 16 bytes, so reading one costs a load and no user code.
template <class... It>
inline constexpr bool groups_elements = (groups_items<span_producer<It>> && ...);

// The least i in [lo, hi) with test(i), or hi. Grouped: a group of find_group indices at a
// time with no branch per index (for a cheap test of elements read from memory, which then
// vectorises; the test may run on up to find_group - 1 indices past a match); otherwise one
// by one.
template <bool Grouped, class Test>
std::size_t first_in_block(std::size_t lo, std::size_t hi, const Test& test) {
  std::size_t i = lo;
  if constexpr (Grouped) {
    bool found = false;
    i = scan_groups(lo, hi, test, found);
    if (found) return i;
  }
  for (; i < hi; ++i)
    if (test(i)) return i;
  return hi;
}

/// The least i in [0, n) with test(i), or n (blocks tested as first_in_block<Grouped>).
template <bool Grouped, class Test>
std::size_t first_index(std::size_t n, const Test& test) {
  return find_first_block(
      n, [&](std::size_t lo, std::size_t hi) { return first_in_block<Grouped>(lo, hi, test); });
}

// Unordered search over blocks: iter's `any` consumer with a block function in place of a
// predicate. The first match anywhere sets the shared flag, and every worker stops at its
// next block (protocol tags S1, S2 in plumbing/search.hpp): a match late in the range ends
// the search as soon as one worker reaches it, where an ordered search must still finish
// every block left of it.
struct any_blocks_consumer : carries_block_cost {
  using result_type = bool;
  using block_fn = block_fn_ref<bool(std::size_t, std::size_t)>;
  const block_fn* block;
  std::atomic<bool>* found;

  std::pair<any_blocks_consumer, any_blocks_consumer> split_at(std::size_t) const {
    return {*this, *this};
  }

  struct folder {
    static constexpr bool stops_early = true;
    bool hit;
    const block_fn* block;
    std::atomic<bool>* found;
    void look(std::size_t a, std::size_t b) {
      if (!(*block)(a, b)) return;
      hit = true;
      found->store(true, std::memory_order_relaxed);  // S1
    }
    void consume(std::size_t, std::size_t i) { look(i, i + 1); }
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t from, std::size_t to) {
      if (from < to) look(p[from], p[from] + (to - from));
    }
    bool done() const { return hit; }
    bool complete() && { return hit; }
  };
  folder make_folder() const { return {false, block, found}; }
  bool full() const { return found->load(std::memory_order_relaxed); }  // S2
  bool reduce(bool l, bool r) const { return l || r; }
};

WEFT_API bool run_blocks(std::size_t n, const any_blocks_consumer& c);

/// Whether `block(lo, hi)` holds for some block of [0, n): true once any block has a match.
template <class Block>
bool any_block(std::size_t n, const Block& block) {
  if (n == 0) return false;
  const any_blocks_consumer::block_fn ref(block);
  if (take_small_case(site_record<Block>, n)) {
    const nested_fold nest;
    return ref(std::size_t{0}, n);
  }
  std::atomic<bool> found{false};
  return run_blocks(n, any_blocks_consumer{{&site_record<Block>}, &ref, &found});
}

/// Whether test(i) holds for some i in [0, n), blocks tested as first_in_block<Grouped>
/// (scan_groups' flag bytes; an OR of a group's tests, which would skip locating the match,
/// compiled to a scalar compare per index here: 40-60 % slower over int32 with no match).
template <bool Grouped, class Test>
bool any_index(std::size_t n, const Test& test) {
  return any_block(n, [&](std::size_t lo, std::size_t hi) {
    return first_in_block<Grouped>(lo, hi, test) != hi;
  });
}

/// The greatest index i in [0, n) where a match is, or n. `block(lo, hi)` returns the last
/// match in [lo, hi), or hi. Searched from the end, as find_first_block searches from the
/// front: it is find_first_block over mirrored positions (j = n - 1 - i), so a match near the
/// end stops the search early at any thread count (with a CAS-max search the join's left
/// half ran first: find_end over 100 M int32, a match 1,000 from the end, 49 ms at 2 threads).
template <class Block>
std::size_t find_last_block(std::size_t n, const Block& block) {
  const std::size_t at = find_first_block(n, [&block, n](std::size_t lo, std::size_t hi) {
    const std::size_t i = block(n - hi, n - lo);
    return i == n - lo ? hi : n - 1 - i;
  });
  return at == n ? n : n - 1 - at;
}

}  // namespace weft::detail::algo
