// SPDX-License-Identifier: MIT
// weft::par_bridge(source): a pipeline over the items of a sequential source, pulled one at a
// time by every thread of the pool (Rayon's par_bridge). Unordered.
//
// The source is shared by `num_threads()` pullers: the pipeline is
// range(0, pullers).with_max_len(1).flat_map(pull until empty), so each puller is its own
// leaf, which a thread takes and runs until the source runs dry. A thread that is busy
// elsewhere simply pulls nothing; the others drain the source, so the load balances itself
// item by item, as it must when the source's items are not known in advance.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <ranges>
#include <type_traits>
#include <utility>

#include "weft/iter.hpp"
#include "weft/pool.hpp"

namespace weft {

namespace detail {

// ---- the shared source ------------------------------------------------------------------
//
// Protocol (bridge_source::pull, called by any number of pullers at once):
//   invariants: every call of next() happens under m_, so the sequential source is never
//   used by two threads at once; each item next() returns is handed to exactly one caller;
//   once next() has returned nothing or thrown, it is never called again (exhausted_), and
//   every later pull returns nothing, so pullers stop and the pipeline ends.
//   orderings:
//     | operation       | ordering           | why                                            |
//     |-----------------|--------------------|------------------------------------------------|
//     | m_.lock()       | acquire            | sees the source as the previous holder left it  |
//     | m_.unlock()     | release            | publishes the source's advance to the next one |
//     | exhausted_      | plain, under m_    | written and read only while holding m_         |
//   An item leaves the lock by value (or as an iterator into a container that outlives the
//   pipeline): the puller that took it reads it with no further synchronisation.
template <class Next>
class bridge_source {
 public:
  using handle = typename std::invoke_result_t<Next&>::value_type;

  explicit bridge_source(Next next) : next_(std::move(next)) {}

  std::optional<handle> pull() {
    std::lock_guard lock(m_);
    if (exhausted_) return std::nullopt;
    try {
      std::optional<handle> h = next_();
      if (!h) exhausted_ = true;
      return h;
    } catch (...) {
      exhausted_ = true;
      throw;
    }
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

// One puller's items: an input view whose iterator pulls the next item as it advances.
template <class Source>
class bridge_pulls : public std::ranges::view_base {
 public:
  bridge_pulls() = default;
  explicit bridge_pulls(Source* source) : source_(source) {}

  class iterator {
   public:
    using handle = typename Source::handle;
    using value_type = std::remove_cvref_t<decltype(Source::item_of(std::declval<handle&>()))>;
    using difference_type = std::ptrdiff_t;

    iterator() = default;
    explicit iterator(Source* source) : source_(source), current_(source->pull()) {}
    decltype(auto) operator*() const { return Source::item_of(*current_); }
    iterator& operator++() {
      current_ = source_->pull();
      return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(std::default_sentinel_t) const { return !current_.has_value(); }

   private:
    Source* source_ = nullptr;
    mutable std::optional<handle> current_;
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

template <class Next>
auto bridge_pipeline(Next next) {
  using source = bridge_source<Next>;
  auto shared = std::make_shared<source>(std::move(next));
  const std::size_t pullers = weft::num_threads();
  return weft::range(std::size_t{0}, pullers)
      .with_max_len(1)
      .flat_map(bridge_pullers<source>{std::move(shared)});
}

}  // namespace detail

/// A pipeline over the items of a sequential source, pulled by every thread of the pool
/// (Rayon's par_bridge): for sources that cannot be split, where each item's work outweighs
/// taking it under a lock (~50 ns; a microsecond of work per item runs ~1.9x faster on 2
/// threads: `par_bridge` in benchmarks/). `source` is
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
  if constexpr (std::ranges::input_range<Source>) {
    return detail::bridge_pipeline(detail::range_next<Source>(std::forward<Source>(source)));
  } else {
    using G = std::remove_cvref_t<Source>;
    static_assert(std::is_invocable_v<G&> &&
                      detail::is_optional<std::remove_cvref_t<std::invoke_result_t<G&>>>,
                  "weft::par_bridge(source): source must be an input range (std::list, "
                  "std::set, a stream view, ...) or a callable returning a std::optional, "
                  "empty at the end");
    return detail::bridge_pipeline(detail::generator_next<G>{std::forward<Source>(source)});
  }
}

}  // namespace weft
