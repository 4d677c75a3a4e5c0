// SPDX-License-Identifier: MIT
// to_vector(), collect<Container>(), collect_into(v), partition(p) and unzip():
// order-preserving gathers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <variant>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/kernels/output_blocks.hpp"
#include "weft/kernels/pages.hpp"
#include "weft/kernels/stream_store.hpp"
#include "weft/iter/for_each.hpp"
#include "weft/iter/node.hpp"
#include "weft/iter/source.hpp"
#include "weft/plumbing/value.hpp"

namespace weft::detail {

// Indexed pipelines know every item's final position: each leaf writes its items straight
// into the outputs, which were sized beforehand. One writer serves to_vector (one output,
// the item whole) and unzip (two outputs, the item's halves): `Parts::part<K>(x)` is what
// output K receives of item x. A single output of stream_min_bytes or more of a trivial type
// may be written a line at a time with streaming stores, where its call site's record finds
// that they pay (collect_indexed_into, algo/stream_store.hpp): nothing reads it during the
// pass, and a plain store may first read each line from memory.
// Two outputs keep plain stores: their lines do not line up, so no line loop serves both,
// and producing a group of items into an array per output before streaming it measured
// slower than the plain stores (docs/benchmarks.md, "unzip shares to_vector's writer").
template <class Parts, class... V>
struct write_indexed_consumer {
  using result_type = no_result;
  // A folder writes item i to position i of each output, so the root consumer's folder is
  // right for any block of the root producer: the compiled engine can run it
  // (iter/node.hpp, compiled_fold).
  static constexpr bool root_folds_any_block = true;
  static constexpr bool streams_lines = sizeof...(V) == 1 && (algo::line_fillable_v<V> && ...);
  std::tuple<V*...> out;
  bool stream;

  // Plain stores; collect_indexed_into lets a single output's call site choose streaming.
  static write_indexed_consumer into(std::vector<V>&... v) { return {{v.data()...}, false}; }
  std::pair<write_indexed_consumer, write_indexed_consumer> split_at(std::size_t i) const {
    auto from_i = std::apply([i](V*... o) { return std::tuple<V*...>{o + i...}; }, out);
    return {*this, {from_i, stream}};
  }
  struct folder {
    std::tuple<V*...> out;
    bool stream;
    template <class X>
    void consume(std::size_t i, X&& x) {
      write(i, std::forward<X>(x), std::index_sequence_for<V...>{});
    }
    template <plumbing::producer P>
    void consume_block(const P& p, std::size_t lo, std::size_t hi) {
      if constexpr (streams_lines) {
        if (stream) return stream_block(p, lo, hi);
      }
      plumbing::walk_items(p, lo, hi, [&](std::size_t i, auto&& x) {
        consume(i, std::forward<decltype(x)>(x));
        return true;
      });
    }
    no_result complete() && { return {}; }

   private:
    // x is forwarded once per output: each output takes a different part of it.
    template <class X, std::size_t... K>
    void write(std::size_t i, X&& x, std::index_sequence<K...>) {
      ((std::get<K>(out)[i] = Parts::template part<K>(std::forward<X>(x))), ...);
    }
    template <class P>
    void stream_block(const P& p, std::size_t lo, std::size_t hi) {
      algo::stream_fill(std::get<0>(out) + lo, hi - lo, [&](auto* d, std::size_t a, std::size_t b) {
        for (std::size_t i = a; i < b; ++i) d[i - a] = Parts::template part<0>(p[lo + i]);
      });
    }
  };
  folder make_folder() const { return {out, stream}; }
  bool full() const { return false; }
  no_result reduce(no_result, no_result) const { return {}; }
};

// What each output of an indexed writer receives: the item whole, or its halves.
struct item_whole {
  template <std::size_t, class X>
  static X&& part(X&& x) {
    return std::forward<X>(x);
  }
};
struct item_halves {
  template <std::size_t K, class X>
  static decltype(auto) part(X&& x) {
    return std::get<K>(std::forward<X>(x));
  }
};

template <class V>
using collect_indexed_consumer = write_indexed_consumer<item_whole, V>;
template <class A, class B>
using unzip_indexed_consumer = write_indexed_consumer<item_halves, A, B>;

// Runs the pipeline (`run` takes the consumer) into `out`, which is sized already. An output
// that could stream is written with the stores its call site's record chooses (Site: a type
// only that site uses; its site_record).
template <class Site, class V, class Run>
void collect_indexed_into(std::vector<V>& out, const Run& run) {
  auto c = collect_indexed_consumer<V>::into(out);
  if constexpr (collect_indexed_consumer<V>::streams_lines) {
    algo::run_choosing_stores_at<Site>(out.size() * sizeof(V), [&](bool stream) {
      c.stream = stream;
      run(c);
    });
  } else {
    run(c);
  }
}

// The output of an indexed collect. std::vector value-initialises its elements on the calling
// thread, and for a large fresh allocation that pass is mostly page faults (the kernel zeroes
// each page on first touch: several us per page under a hypervisor). So the reserved storage
// is first faulted in on every worker (algo::prefault: the raw storage of the reserved
// capacity, where no object exists yet); resize() then only writes zeros to resident memory
// (7 ms for 400 MB on an AMD EPYC guest). 50 M doubles there, the whole to_vector: 170-180 ms
// at 1 thread with the faults asked for a block at a time, 241-278 ms as one write per page;
// a sized std::vector and std::transform 232-270 ms.
// Not offered for transparent huge pages: where a hypervisor takes back the guest's free
// memory (free page reporting), a huge page is mostly carved from such memory, and its first
// touch costs 3-4x the 4 KiB faults (1 thread: 510-972 ms against 221-234; 2 threads 89-322
// ms). The sorts' scratch does without them for the same reason (algo/scratch.hpp). Where a
// hypervisor backs huge pages cheaply it is the other way round (the 16-core Intel Xeon guest
// of docs/benchmarks.md: 179 ms on huge pages, 392 ms on 4 KiB pages).
inline constexpr std::size_t prefault_min_bytes = std::size_t{8} << 20;

// Makes `out` hold n elements, keeping its allocation when it has room for them (collect_into
// into a vector used before: no allocation, no page faults); the elements it gains are
// value-initialised, on memory faulted in first when they are many.
template <class V>
void resize_output(std::vector<V>& out, std::size_t n) {
  if (out.capacity() < n) {
    std::vector<V>().swap(out);  // the old elements are overwritten anyway: free them first
    out.reserve(n);
  }
  if constexpr (std::is_trivially_default_constructible_v<V> && std::is_trivially_copyable_v<V>) {
    const std::size_t gained = n > out.size() ? n - out.size() : 0;
    if (gained * sizeof(V) >= prefault_min_bytes)
      algo::prefault(out.data() + out.size(), gained * sizeof(V));
  }
  out.resize(n);
}

// Unindexed pipelines (after filter) gather per leaf, then concatenate the pieces in order.
template <class V>
using pieces = std::vector<std::vector<V>>;

template <class V>
void append_pieces(pieces<V>& l, pieces<V>&& r) {
  if (l.empty()) {
    l = std::move(r);
    return;
  }
  for (auto& piece : r) l.push_back(std::move(piece));
}

// The pieces, in order, in one vector. A large output of a trivial type is faulted in and
// filled on every worker (each block of output indices copies from the pieces that hold
// them, streamed from 16 MiB: for_output_blocks); otherwise, or when small, the pieces are
// moved in one after another.
// `out`'s allocation is kept where it has room, except that a single piece is moved in whole.
template <class V>
void flatten_into(pieces<V>&& ps, std::vector<V>& out) {
  if (ps.size() == 1) {
    out = std::move(ps.front());
    return;
  }
  std::vector<std::size_t> starts(ps.size() + 1);  // starts[k]: output index of piece k's first
  for (std::size_t k = 0; k < ps.size(); ++k) starts[k + 1] = starts[k] + ps[k].size();
  const std::size_t total = starts.back();
  if constexpr (std::is_trivially_default_constructible_v<V> && std::is_trivially_copyable_v<V>) {
    if (total * sizeof(V) >= prefault_min_bytes) {
      resize_output(out, total);
      algo::for_output_blocks(out.begin(), total, false,
                              [&](std::size_t lo, std::size_t hi, auto d) {
        auto k = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), lo) -
                                          starts.begin()) - 1;
        for (; lo < hi; ++k) {
          const std::size_t end = hi < starts[k + 1] ? hi : starts[k + 1];
          d = std::copy(ps[k].begin() + (lo - starts[k]), ps[k].begin() + (end - starts[k]), d);
          lo = end;
        }
      });
      return;
    }
  }
  out.clear();
  out.reserve(total);
  for (auto& piece : ps) std::move(piece.begin(), piece.end(), std::back_inserter(out));
}

template <class V>
struct collect_pieces_consumer : splittable_by_copy<collect_pieces_consumer<V>> {
  using result_type = pieces<V>;
  struct folder {
    std::vector<V> items;
    template <class X>
    void consume(std::size_t, X&& x) {
      items.emplace_back(std::forward<X>(x));
    }
    pieces<V> complete() && {
      pieces<V> r;
      if (!items.empty()) r.push_back(std::move(items));
      return r;
    }
  };
  folder make_folder() const { return {}; }
  bool full() const { return false; }
  pieces<V> reduce(pieces<V> l, pieces<V> r) const {
    append_pieces(l, std::move(r));
    return l;
  }
};

// Gathers of two outputs (partition, unzip): each leaf routes its items into two vectors,
// and the leaves' vectors are kept in order as two lists of pieces. `Route` is called as
// route(first, second, item).
template <class A, class B, class Route>
struct gather_two_consumer : splittable_by_copy<gather_two_consumer<A, B, Route>> {
  using result_type = std::pair<pieces<A>, pieces<B>>;
  Route route;

  struct folder {
    std::vector<A> first;
    std::vector<B> second;
    Route route;
    template <class X>
    void consume(std::size_t, X&& x) {
      route(first, second, std::forward<X>(x));
    }
    result_type complete() && {
      result_type r;
      if (!first.empty()) r.first.push_back(std::move(first));
      if (!second.empty()) r.second.push_back(std::move(second));
      return r;
    }
  };
  folder make_folder() const { return {{}, {}, route}; }
  bool full() const { return false; }
  result_type reduce(result_type l, result_type r) const {
    append_pieces(l.first, std::move(r.first));
    append_pieces(l.second, std::move(r.second));
    return l;
  }
};

template <class Pred>
struct partition_route {
  const Pred* pred;
  template <class V, class X>
  void operator()(std::vector<V>& yes, std::vector<V>& no, X&& x) const {
    if (std::invoke(*pred, std::as_const(x)))
      yes.emplace_back(std::forward<X>(x));
    else
      no.emplace_back(std::forward<X>(x));
  }
};

struct unzip_route {
  template <class A, class B, class X>
  void operator()(std::vector<A>& first, std::vector<B>& second, X&& x) const {
    first.emplace_back(std::get<0>(std::forward<X>(x)));
    second.emplace_back(std::get<1>(std::forward<X>(x)));
  }
};

// partition_map(f): f(item) is a std::variant<L, R>; its L goes to the first vector, its R to
// the second.
template <class F>
struct partition_map_route {
  const F* f;
  template <class L, class R, class X>
  void operator()(std::vector<L>& left, std::vector<R>& right, X&& x) const {
    auto either = std::invoke(*f, std::forward<X>(x));
    if (either.index() == 0)
      left.emplace_back(std::get<0>(std::move(either)));
    else
      right.emplace_back(std::get<1>(std::move(either)));
  }
};

// Both halves of a partition or an unzip, each flattened as flatten_into.
template <class A, class B>
std::pair<std::vector<A>, std::vector<B>> flatten_both(std::pair<pieces<A>, pieces<B>>&& ps) {
  std::pair<std::vector<A>, std::vector<B>> out;
  flatten_into(std::move(ps.first), out.first);
  flatten_into(std::move(ps.second), out.second);
  return out;
}

}  // namespace weft::detail
