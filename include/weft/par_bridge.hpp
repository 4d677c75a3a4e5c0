// SPDX-License-Identifier: MIT
// weft::par_bridge(source): a pipeline over the items of a sequential source, pulled in small
// batches by every thread of the pool (Rayon's par_bridge). Unordered. par_bridge_ordered keeps
// the source's order by reading it in batches on one thread (below).
//
// The source is shared by `num_threads()` pullers: the pipeline is
// pullers.with_max_len(1).flat_map(pull until empty), so each puller is its own leaf, which
// a thread takes and runs until the source runs dry; the engine offers each fork of them to
// the pool at once (their items are long: plumbing::has_long_items). A thread that is busy
// elsewhere simply pulls nothing; the others drain the source, so the load balances itself
// item by item, as it must when the source's items are not known in advance.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/iter.hpp"
#include "weft/plumbing/bridge.hpp"
#include "weft/pool.hpp"

namespace weft {

namespace detail {

// ---- the shared source ------------------------------------------------------------------
//
// Protocol (bridge_source::pull, called by any number of pullers at once, each taking a batch
// of up to k items per call):
//   invariants: every call of next() happens under m_, so the sequential source is never
//   used by two threads at once; each item next() returns is handed to exactly one caller,
//   in the batch of the call that took it;
//   once next() has returned nothing or thrown, it is never called again (exhausted_), and
//   every later pull returns nothing, so pullers stop and the pipeline ends.
//   orderings:
//     | operation       | ordering           | why                                            |
//     |-----------------|--------------------|------------------------------------------------|
//     | m_.try_lock() / | acquire            | sees the source as the previous holder left it  |
//     | m_.lock()       |                    | (a failed try_lock orders nothing)             |
//     | m_.unlock()     | release            | publishes the source's advance to the next one |
//     | exhausted_      | plain, under m_    | written and read only while holding m_         |
//   An item leaves the lock by value (or as an iterator into a container that outlives the
//   pipeline): the puller that took it reads it with no further synchronisation.
template <class Next>
class bridge_source {
 public:
  using handle = typename std::invoke_result_t<Next&>::value_type;

  explicit bridge_source(Next next) : next_(std::move(next)) {}

  // Appends up to k items to `out` under one lock; fewer once the source runs dry.
  std::size_t pull(std::vector<handle>& out, std::size_t k) {
    // The lock is held for k calls of next(): spin on try_lock a little before blocking, so
    // that a puller that finds it taken waits out the holder instead of paying a futex
    // sleep and wake-up (microseconds).
    for (int spins = 0; !m_.try_lock(); ++spins) {
      if (spins == 64) {
        m_.lock();
        break;
      }
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();  // the spin's pause (detail/sync's cpu_relax is below this layer)
#endif
    }
    std::lock_guard lock(m_, std::adopt_lock);
    std::size_t taken = 0;
    try {
      while (taken < k && !exhausted_) {
        std::optional<handle> h = next_();
        if (!h) {
          exhausted_ = true;
          break;
        }
        out.push_back(std::move(*h));
        ++taken;
      }
    } catch (...) {
      exhausted_ = true;
      throw;
    }
    return taken;
  }
  static decltype(auto) item_of(handle& h) { return Next::item_of(h); }

 private:
  std::mutex m_;
  Next next_;
  bool exhausted_ = false;
};

// A range's items: an lvalue forward range (its elements stay where they are) hands out
// iterators, so items are references, as weft::iter's are; an input-only range (a stream)
// or a container moved in hands out values, moved out where the pipeline owns them.
template <class R>
class range_next {
  static constexpr bool by_reference =
      std::is_lvalue_reference_v<R> && std::ranges::forward_range<R>;
  static constexpr bool owned = !std::is_lvalue_reference_v<R> && !std::ranges::view<std::remove_cvref_t<R>>;
  using stored = std::conditional_t<std::is_lvalue_reference_v<R>, R, std::remove_cvref_t<R>>;
  using iterator = std::ranges::iterator_t<std::remove_reference_t<stored>>;
  using value = std::ranges::range_value_t<std::remove_reference_t<stored>>;

 public:
  using handle = std::conditional_t<by_reference, iterator, value>;

  explicit range_next(R&& r) : r_(std::forward<R>(r)) {}

  std::optional<handle> operator()() {
    if (!it_) it_.emplace(std::ranges::begin(r_));
    auto& it = *it_;
    if (it == std::ranges::end(r_)) return std::nullopt;
    std::optional<handle> h;
    if constexpr (by_reference)
      h.emplace(it);
    else if constexpr (owned)
      h.emplace(std::ranges::iter_move(it));
    else
      h.emplace(*it);
    ++it;
    return h;
  }
  static decltype(auto) item_of(handle& h) {
    if constexpr (by_reference)
      return *h;
    else
      return std::move(h);
  }

 private:
  stored r_;
  std::optional<iterator> it_;
};

// A generator: a callable returning std::optional<T>, nothing at the end; items are the Ts.
template <class G>
struct generator_next {
  using handle = typename std::invoke_result_t<G&>::value_type;
  G g;
  std::optional<handle> operator()() { return std::invoke(g); }
  static handle&& item_of(handle& h) { return std::move(h); }
};

// One puller's items: an input view whose iterator pulls items as it advances.
template <class Source>
class bridge_pulls : public std::ranges::view_base {
 public:
  bridge_pulls() = default;
  explicit bridge_pulls(Source* source) : source_(source) {}

  // Takes items a batch at a time: 1, then twice as many per refill up to max_batch. Each
  // pull moves the source and its lock between cores (~100 ns a line); a batch pays that
  // once for its items, and a batch of at most 16 items leaves the threads' shares even.
  class iterator {
   public:
    using handle = typename Source::handle;
    using value_type = std::remove_cvref_t<decltype(Source::item_of(std::declval<handle&>()))>;
    using difference_type = std::ptrdiff_t;
    static constexpr std::size_t max_batch = 16;

    iterator() = default;
    explicit iterator(Source* source) : source_(source) { refill(); }
    decltype(auto) operator*() const { return Source::item_of(batch_[at_]); }
    iterator& operator++() {
      if (++at_ == batch_.size()) refill();
      return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(std::default_sentinel_t) const { return at_ == batch_.size(); }

   private:
    void refill() {
      batch_.clear();
      at_ = 0;
      source_->pull(batch_, size_);
      size_ = std::min(2 * size_, max_batch);
    }

    Source* source_ = nullptr;
    mutable std::vector<handle> batch_;
    std::size_t at_ = 0;
    std::size_t size_ = 1;
  };

  iterator begin() const { return iterator(source_); }
  std::default_sentinel_t end() const { return {}; }

 private:
  Source* source_ = nullptr;
};

template <class Source>
struct bridge_pullers {
  std::shared_ptr<Source> source;
  bridge_pulls<Source> operator()(std::size_t) const { return bridge_pulls<Source>(source.get()); }
};

// ---- the ordered bridge ------------------------------------------------------------------
//
// par_bridge_ordered reads the source on the thread that runs the pipeline, in batches, and
// runs each batch on the bridge as an indexed range whose positions continue the previous
// batch's: the consumer is split at each batch's end, as by_exponential_blocks splits it, so
// an ordered consumer (to_vector, find_first) sees the source's order. Batches start at 256
// items per thread of the pool and double up to 64 Ki items: a short source is not read far
// ahead, a long one pays the sequential read once per large batch. Only that thread touches
// the source, so it takes no lock.

// A batch of handles as a producer: position i is the batch's item i, moved out (a value) or
// referred to (an iterator into the source), once.
template <class Next>
using ordered_item_t = std::conditional_t<
    std::is_rvalue_reference_v<decltype(Next::item_of(std::declval<typename Next::handle&>()))>,
    typename Next::handle, decltype(Next::item_of(std::declval<typename Next::handle&>()))>;

template <class Next>
struct handles_producer {
  typename Next::handle* data;
  std::size_t n;

  std::size_t size() const { return n; }
  ordered_item_t<Next> operator[](std::size_t i) const { return Next::item_of(data[i]); }
  handles_producer slice(std::size_t lo, std::size_t hi) const { return {data + lo, hi - lo}; }
};

template <class Next>
class ordered_bridge_node {
 public:
  static constexpr bool indexed = false;
  using item_type = ordered_item_t<Next>;
  static constexpr bool producer_borrows_only = false;

  explicit ordered_bridge_node(Next next) : next_(std::make_shared<Next>(std::move(next))) {}
  // The source's length is unknown until it is read: the consumer's span is as large as a
  // pipeline's positions go.
  std::size_t positions() { return std::size_t{1} << 62; }

  template <plumbing::consumer C>
  typename C::result_type drive(C c, const plumbing::split_options& opt) {
    using handle = typename Next::handle;
    std::size_t batch = 256 * std::max<std::size_t>(1, weft::num_threads());
    std::vector<handle> handles;
    bool dry = false;
    return drive_blocks_in_order(std::move(c), opt,
                                 [&]() -> std::optional<handles_producer<Next>> {
      if (dry) return std::nullopt;
      handles.clear();
      while (handles.size() < batch) {
        std::optional<handle> h = (*next_)();
        if (!h) break;
        handles.push_back(std::move(*h));
      }
      if (handles.empty()) return std::nullopt;
      if (handles.size() < batch)
        dry = true;  // the source ran dry: this batch is the last
      else
        batch = std::min<std::size_t>(2 * batch, std::size_t{1} << 16);
      return handles_producer<Next>{handles.data(), handles.size()};
    });
  }

 private:
  std::shared_ptr<Next> next_;  // shared by the pipeline's copies: the source is read once
};

template <class Next>
auto ordered_bridge_pipeline(Next next) {
  using node = ordered_bridge_node<Next>;
  return par_iter<node>(node(std::move(next)));
}

// The pullers' indices 0 .. k - 1: each item pulls until the source is dry, so the engine
// offers every fork of them to the pool at once (plumbing::has_long_items). Forked on demand,
// the second puller stays private while the first drains the whole source (a worker asleep
// at the fork never asks for it).
struct puller_indices {
  static constexpr bool long_items = true;
  std::size_t first;
  std::size_t n;
  std::size_t size() const { return n; }
  std::size_t operator[](std::size_t i) const { return first + i; }
  puller_indices slice(std::size_t lo, std::size_t hi) const { return {first + lo, hi - lo}; }
};

class pullers_node {
 public:
  static constexpr bool indexed = true;
  static constexpr bool producer_borrows_only = true;
  using item_type = std::size_t;
  explicit pullers_node(std::size_t k) : k_(k) {}
  std::size_t size() const { return k_; }
  puller_indices producer() const { return {0, k_}; }

 private:
  std::size_t k_;
};

template <class Next>
auto bridge_pipeline(Next next) {
  using source = bridge_source<Next>;
  auto shared = std::make_shared<source>(std::move(next));
  return par_iter<pullers_node>(pullers_node(weft::num_threads()))
      .with_max_len(1)
      .flat_map(bridge_pullers<source>{std::move(shared)});
}

// The source's reader (range_next or generator_next) handed to `make`.
template <class Source, class Make>
auto bridge_source_next(Source&& source, Make make) {
  if constexpr (std::ranges::input_range<Source>) {
    return make(range_next<Source>(std::forward<Source>(source)));
  } else {
    using G = std::remove_cvref_t<Source>;
    static_assert(std::is_invocable_v<G&> &&
                      is_optional<std::remove_cvref_t<std::invoke_result_t<G&>>>,
                  "weft::par_bridge(source): source must be an input range (std::list, "
                  "std::set, a stream view, ...) or a callable returning a std::optional, "
                  "empty at the end");
    if constexpr (std::is_invocable_v<G&> &&
                  is_optional<std::remove_cvref_t<std::invoke_result_t<G&>>>)
      return make(generator_next<G>{std::forward<Source>(source)});
  }
}

}  // namespace detail

/// A pipeline over the items of a sequential source, pulled by every thread of the pool
/// (Rayon's par_bridge): for sources that cannot be split, where each item's work outweighs
/// taking it under a lock. Each thread takes a batch per lock (1 item, then twice as many per
/// refill, up to 16): a microsecond of work per item runs 1.98x faster on 2 threads than
/// sequentially (`par_bridge` in benchmarks/). `source` is
/// - an input range: std::list, std::set, std::map, std::unordered_map, a
///   std::ranges::istream_view, a generator view. Borrowed when an lvalue: items are
///   references into a forward range (std::list, std::set, ...) and copies of an input-only
///   one's; a container moved in has its items moved out.
/// - or a callable returning std::optional<T>, called until it returns nothing; items are
///   the Ts.
/// The source is read under a lock, by one thread at a time, and is consumed: the pipeline
/// runs once (a second run finds it empty). Items arrive in no particular order: to_vector
/// returns them in the order the threads took them, find_first the first of those.
/// Exceptions: an exception from the source or from the pipeline's callables reaches the
/// caller, and the source is not read again.
template <class Source>
auto par_bridge(Source&& source) {
  return detail::bridge_source_next(std::forward<Source>(source), [](auto next) {
    return detail::bridge_pipeline(std::move(next));
  });
}

/// par_bridge that keeps the source's order (rayon#210 asks Rayon for one): the thread that
/// runs the pipeline reads the source in batches (256 items per thread of the pool, doubling
/// up to 64 Ki), and each batch runs in parallel as an indexed range whose positions
/// continue the last: to_vector returns the items in the source's order, find_first finds
/// the first in that order and reads no batch after it. The source is read by that one
/// thread, without a lock, while the batch before is not yet running: where reading an item
/// costs about as much as working on it, par_bridge, which reads on every thread, is faster.
/// Sources, items, exceptions and the single run as par_bridge's.
template <class Source>
auto par_bridge_ordered(Source&& source) {
  return detail::bridge_source_next(std::forward<Source>(source), [](auto next) {
    return detail::ordered_bridge_pipeline(std::move(next));
  });
}

}  // namespace weft
