// SPDX-License-Identifier: MIT
// weft::slice(v): pipelines over the runs of a contiguous range (Rayon's ParallelSlice and
// ParallelSliceMut): split by a predicate, chunk_by, chunks_exact, rchunks and
// rchunks_exact, each run a std::span (writable when v is).
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "weft/iter.hpp"
#include "weft/iter/pieces.hpp"

namespace weft {

namespace detail {
template <class T>
struct span_piece {
  std::span<T> operator()(T* d, std::size_t s, std::size_t e) const { return {d + s, e - s}; }
};
}  // namespace detail

/// Pipelines over the runs of a contiguous range of T (const T for a const range), which
/// the caller keeps alive while they run. Made by weft::slice(v).
template <class T>
class parallel_slice {
 public:
  explicit parallel_slice(std::span<T> items) : items_(items) {}

  /// The runs between the elements for which p(const T&) holds (which belong to no run),
  /// empty runs included: n separators make n + 1 runs (Rust's split). Not indexed.
  template <class P>
  auto split(P p) const {
    static_assert(std::predicate<const P&, const T&>,
                  "weft::slice(v).split(p): p must be callable as p(const T&) on a const p "
                  "and return bool");
    auto is = [p = std::move(p)](const T& x) { return static_cast<bool>(std::invoke(p, x)); };
    return detail::pieces_of(items_.data(), items_.size(),
                             detail::separated_rule<decltype(is), detail::span_piece<T>>{
                                 std::move(is), {}});
  }
  /// The maximal runs in which every two neighbours a, b satisfy together(a, b) (Rust's
  /// chunk_by: `together = equal` gives the runs of equal elements). Not indexed.
  template <class P>
  auto chunk_by(P together) const {
    static_assert(std::predicate<const P&, const T&, const T&>,
                  "weft::slice(v).chunk_by(together): together must be callable as "
                  "together(const T&, const T&) on a const callable and return bool");
    auto both = [p = std::move(together)](const T& a, const T& b) {
      return static_cast<bool>(std::invoke(p, a, b));
    };
    return detail::pieces_of(items_.data(), items_.size(),
                             detail::runs_of_neighbours_rule<decltype(both), detail::span_piece<T>>{
                                 std::move(both), {}});
  }
  /// [indexed] Consecutive runs of exactly n elements from the front; the last
  /// size() % n elements are in no run (they are `remainder_of_exact(n)`). n > 0.
  auto chunks_exact(std::size_t n) const {
    require_positive(n, "chunks_exact(n)");
    return weft::range(std::size_t{0}, items_.size() / n)
        .map([items = items_, n](std::size_t k) { return items.subspan(k * n, n); });
  }
  /// [indexed] Runs of n elements from the back: the first run is the last n elements, the
  /// last run the (possibly shorter) front (Rust's rchunks). n > 0.
  auto rchunks(std::size_t n) const {
    require_positive(n, "rchunks(n)");
    const std::size_t size = items_.size();
    return weft::range(std::size_t{0}, size / n + (size % n != 0))
        .map([items = items_, n](std::size_t k) {
          const std::size_t hi = items.size() - k * n;
          const std::size_t lo = hi > n ? hi - n : 0;
          return items.subspan(lo, hi - lo);
        });
  }
  /// [indexed] Runs of exactly n elements from the back; the first size() % n elements are
  /// in no run. n > 0.
  auto rchunks_exact(std::size_t n) const {
    require_positive(n, "rchunks_exact(n)");
    return weft::range(std::size_t{0}, items_.size() / n)
        .map([items = items_, n](std::size_t k) {
          return items.subspan(items.size() - (k + 1) * n, n);
        });
  }
  /// The elements chunks_exact(n) leaves out: the last size() % n. n > 0.
  std::span<T> remainder_of_exact(std::size_t n) const {
    require_positive(n, "remainder_of_exact(n)");
    return items_.last(items_.size() % n);
  }

 private:
  static void require_positive(std::size_t n, const char* what) {
    if (n == 0)
      throw std::invalid_argument(std::string("weft::slice(v).") + what + ": must be positive");
  }

  std::span<T> items_;
};

/// The runs of a contiguous range as pipelines (Rayon's par_split, par_chunk_by,
/// par_chunks_exact, par_rchunks, ...): `weft::slice(v).chunk_by(std::equal_to<>{})`.
/// Borrows v: a temporary container is refused (its runs would dangle).
template <class R>
auto slice(R&& r) {
  static_assert(std::ranges::contiguous_range<R> && std::ranges::sized_range<R>,
                "weft::slice(v): v must be a contiguous sized range (std::vector, std::array, "
                "std::span, a C array, std::string, ...)");
  static_assert(std::is_lvalue_reference_v<R> || std::ranges::borrowed_range<R>,
                "weft::slice(v): v is a temporary container, whose runs would dangle once it "
                "is gone: keep it in a variable and pass that");
  using T = std::remove_reference_t<std::ranges::range_reference_t<R>>;
  return parallel_slice<T>(std::span<T>(std::ranges::data(r), std::ranges::size(r)));
}

}  // namespace weft
