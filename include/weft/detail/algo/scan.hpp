// SPDX-License-Identifier: MIT
// The scan kernel: inclusive / exclusive, with or without a transform, as a chunker of the
// single-pass look-back machinery (detail/algo/lookback.hpp).
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/detail/algo/blocks.hpp"
#include "weft/detail/algo/lookback.hpp"

namespace weft::detail::algo {

struct identity_fn {
  template <class X>
  constexpr X&& operator()(X&& x) const noexcept {
    return std::forward<X>(x);
  }
};

// Every element is read before its output is written, so d_first == first is safe.
template <class T, bool Exclusive, class In, class Out, class Op, class Un>
struct scan_chunker {
  struct scratch {};
  In in;
  Out out;
  Op& op;
  Un& un;

  T combine(T a, T b) const { return op(std::move(a), std::move(b)); }

  T reduce(std::size_t lo, std::size_t hi, scratch&) const { return aggregate(lo, hi); }

  T aggregate(std::size_t lo, std::size_t hi) const {
    In it = detail::algo::advance(in, lo);
    const In end = detail::algo::advance(in, hi);
    T acc = un(*it);
    for (++it; it != end; ++it) acc = op(std::move(acc), un(*it));
    return acc;
  }

  void scan(std::size_t lo, std::size_t hi, std::optional<T>& carry, scratch&, bool) const {
    In it = detail::algo::advance(in, lo);
    const In end = detail::algo::advance(in, hi);
    Out o = detail::algo::advance(out, lo);
    if constexpr (!Exclusive) {
      if (!carry) {  // the very first element of an inclusive scan without init
        carry.emplace(un(*it));
        *o = *carry;
        ++it;
        ++o;
      }
    }
    T acc = std::move(*carry);
    for (; it != end; ++it, ++o) {
      if constexpr (Exclusive) {
        T v = un(*it);
        *o = acc;
        acc = op(std::move(acc), std::move(v));
      } else {
        acc = op(std::move(acc), un(*it));
        *o = acc;
      }
    }
    *carry = std::move(acc);
  }
};

// Whether the output starts where the input does (in place); true when it cannot tell.
template <class In, class Out>
bool same_position(In first, Out d_first) {
  if constexpr (std::contiguous_iterator<In> && std::contiguous_iterator<Out>)
    return static_cast<const volatile void*>(std::to_address(first)) ==
           static_cast<const volatile void*>(std::to_address(d_first));
  else if constexpr (std::is_same_v<In, Out>)
    return first == d_first;
  else
    return true;
}

/// Scans [first, last) into d_first in one pass over memory; `init` is the carry before the
/// first element (mandatory when Exclusive). Returns d_first + n.
template <class T, bool Exclusive, class In, class Out, class Op, class Un>
Out scan_kernel(In first, In last, Out d_first, Op& op, Un& un, std::optional<T> init) {
  const std::size_t n = detail::algo::distance(first, last);
  scan_chunker<T, Exclusive, In, Out, Op, Un> ch{first, d_first, op, un};
  // In place, a chunk's input is overwritten once its owner has its prefix: nobody else
  // may then read it, so waiters must wait rather than recompute.
  lookback_options opt;
  opt.may_recompute = n > 0 && !same_position(first, d_first);
  lookback_pass<T>(n, lookback_chunk_items<std::iter_value_t<In>>(), ch, std::move(init), opt);
  return detail::algo::advance(d_first, n);
}

}  // namespace weft::detail::algo
