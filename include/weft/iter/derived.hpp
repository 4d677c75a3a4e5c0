// SPDX-License-Identifier: MIT
// Adaptors that are compositions of the primitive ones (Rayon's positions, zip_eq, update and
// fold_chunks), the scan stages (to_vector, then weft::inclusive_scan), the partition_map
// consumer, and Rayon's names for what weft's own adaptors already are (fold_with,
// flat_map_iter, flatten_iter): a base of par_iter, written over its public adaptors, so each is exactly the
// pipeline a user would write by hand and runs as fast (benchmarks/: fold_chunks).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "weft/algorithm/scan.hpp"
#include "weft/execution.hpp"
#include "weft/iter/collect.hpp"
#include "weft/iter/fwd.hpp"
#include "weft/iter/reduce.hpp"

namespace weft::detail {

template <class E>
constexpr bool is_two_way_variant = false;
template <class L, class R>
constexpr bool is_two_way_variant<std::variant<L, R>> = true;

template <class Self>
class derived_adaptors {
 public:
  /// [indexed] The positions of the items for which p holds, in order (Rayon's positions).
  /// The result is not indexed (it follows a filter).
  template <class P>
  auto positions(P p) && {
    require_indexed("positions(p)");
    using item = typename Self::item_type;
    static_assert(std::predicate<const P&, const_ref_of<item>>,
                  "weft: positions(p): p must be callable as p(const item&) on a const p and "
                  "return bool");
    return std::move(self()).enumerate().filter_map(
        [p = std::move(p)](const auto& at) -> std::optional<std::size_t> {
          if (std::invoke(p, std::as_const(at.second))) return at.first;
          return std::nullopt;
        });
  }
  template <class P>
  auto positions(P p) const& { return Self(self()).positions(std::move(p)); }

  /// [indexed] zip(other) for sides of equal length (Rayon's zip_eq). Exceptions:
  /// std::invalid_argument, when the call is made, if the lengths differ (Rayon panics).
  template <class Other>
  auto zip_eq(Other&& other) && {
    require_indexed("zip_eq(other)");
    auto rhs = weft::iter(std::forward<Other>(other));
    static_assert(decltype(rhs)::indexed,
                  "weft: zip_eq(other): other must be indexed "
                  "(not after filter/filter_map/flat_map/fold/map_init/try_fold/while_some)");
    const std::size_t na = self().size();
    const std::size_t nb = rhs.size();
    if (na != nb)
      throw std::invalid_argument("weft: zip_eq(other): the sides differ in length (" +
                                  std::to_string(na) + " and " + std::to_string(nb) + ")");
    return std::move(self()).zip(std::move(rhs));
  }
  template <class Other>
  auto zip_eq(Other&& other) const& { return Self(self()).zip_eq(std::forward<Other>(other)); }

  /// Each item becomes a value (a copy of the item) that f(value&) may change, then passes
  /// on (Rayon's update). The source is never written through it, also where the items are
  /// references into a mutable range (Rayon's update on par_iter_mut writes the slice): to
  /// write the source, use for_each.
  template <class F>
  auto update(F f) && {
    using V = typename Self::value_type;
    static_assert(std::is_invocable_v<const F&, V&>,
                  "weft: update(f): f must be callable as f(value&) on a const f");
    return std::move(self()).map([f = std::move(f)](auto&& x) {
      V v(std::forward<decltype(x)>(x));
      std::invoke(f, v);
      return v;
    });
  }
  template <class F>
  auto update(F f) const& { return Self(self()).update(std::move(f)); }

  /// [indexed] One item per run of n consecutive items (the last run may be shorter): the
  /// run folded from `identity` (a value, or a callable making one) with fold(T, item) -> T,
  /// in order (Rayon's fold_chunks). As chunks(n).map(fold the run). Precondition: n > 0
  /// (std::invalid_argument otherwise).
  template <class Identity, class Fold>
  auto fold_chunks(std::size_t n, Identity identity, Fold fold) && {
    require_indexed("fold_chunks(n, identity, fold)");
    using T = typename identity_type<Identity>::type;
    static_assert(std::is_invocable_r_v<T, const Fold&, T, typename Self::item_type>,
                  "weft: fold_chunks(n, identity, fold): fold must be callable as "
                  "fold(T, item) and return T, where T is the identity's type");
    return std::move(self()).chunks(n).map(
        [identity = std::move(identity), fold = std::move(fold)](auto&& run) {
          T acc = make_identity<T>(identity);
          for (auto&& x : run) acc = std::invoke(fold, std::move(acc), std::forward<decltype(x)>(x));
          return acc;
        });
  }
  template <class Identity, class Fold>
  auto fold_chunks(std::size_t n, Identity identity, Fold fold) const& {
    return Self(self()).fold_chunks(n, std::move(identity), std::move(fold));
  }

  /// The inclusive prefixes of the items under an associative op(V, V) -> V (default +):
  /// item i becomes item 0 op item 1 op ... op item i, as std::inclusive_scan. A prefix
  /// needs every item before it, so this stage runs the pipeline before it when it is
  /// called (to_vector), scans that vector in place with weft::inclusive_scan on the pool,
  /// and returns an [indexed] pipeline that owns it (Rayon has no scan: rayon#393).
  template <class Op = std::plus<>>
  auto inclusive_scan(Op op = {}) && {
    using V = typename Self::value_type;
    static_assert(std::is_invocable_r_v<V, const Op&, const V&, const V&>,
                  "weft: inclusive_scan(op): op must be callable as op(V, V) -> V");
    auto items = std::move(self()).to_vector();
    weft::inclusive_scan(weft::par, items.begin(), items.end(), items.begin(), std::move(op));
    return weft::iter(std::move(items));
  }
  template <class Op = std::plus<>>
  auto inclusive_scan(Op op = {}) const& { return Self(self()).inclusive_scan(std::move(op)); }
  /// The exclusive prefixes: item i becomes init op item 0 op ... op item i - 1, as
  /// std::exclusive_scan; run when called, as inclusive_scan.
  template <class T, class Op = std::plus<>>
  auto exclusive_scan(T init, Op op = {}) && {
    using V = typename Self::value_type;
    static_assert(std::is_invocable_r_v<V, const Op&, const V&, const V&> &&
                      std::is_convertible_v<T, V>,
                  "weft: exclusive_scan(init, op): op must be callable as op(V, V) -> V and "
                  "init must convert to V");
    auto items = std::move(self()).to_vector();
    weft::exclusive_scan(weft::par, items.begin(), items.end(), items.begin(),
                         static_cast<V>(std::move(init)), std::move(op));
    return weft::iter(std::move(items));
  }
  template <class T, class Op = std::plus<>>
  auto exclusive_scan(T init, Op op = {}) const& {
    return Self(self()).exclusive_scan(std::move(init), std::move(op));
  }

  /// f(item) returns a std::variant<L, R>: the Ls in one vector and the Rs in another, both
  /// in order (Rayon's partition_map with Either::Left / Right).
  template <class F>
  auto partition_map(F f) {
    using item = typename Self::item_type;
    static_assert(const_invocable<F, item>,
                  "weft: partition_map(f): f must be callable as f(item) on a const f");
    using E = std::remove_cvref_t<std::invoke_result_t<const F&, item>>;
    static_assert(is_two_way_variant<E>,
                  "weft: partition_map(f): f must return a std::variant<L, R> of two types");
    if constexpr (is_two_way_variant<E>) {
      using L = std::variant_alternative_t<0, E>;
      using R = std::variant_alternative_t<1, E>;
      using route = partition_map_route<F>;
      return flatten_both(par_iter_access::run(self(), gather_two_consumer<L, R, route>{{}, {&f}}));
    }
  }

  /// fold(init, f): weft's fold takes a value identity (copied per leaf) as well as a
  /// callable (Rayon's fold_with).
  template <class T, class F>
  auto fold_with(T init, F f) && { return std::move(self()).fold(std::move(init), std::move(f)); }
  template <class T, class F>
  auto fold_with(T init, F f) const& { return Self(self()).fold(std::move(init), std::move(f)); }

  /// flat_map(f): weft's flat_map always walks each inner range sequentially on the thread
  /// that holds its item, as Rayon's flat_map_iter does.
  template <class F>
  auto flat_map_iter(F f) && { return std::move(self()).flat_map(std::move(f)); }
  template <class F>
  auto flat_map_iter(F f) const& { return Self(self()).flat_map(std::move(f)); }
  /// flatten(), as flat_map_iter is flat_map.
  auto flatten_iter() && { return std::move(self()).flatten(); }
  auto flatten_iter() const& { return Self(self()).flatten(); }

 private:
  template <class T>
  using const_ref_of =
      std::add_lvalue_reference_t<std::add_const_t<std::remove_reference_t<T>>>;

  Self& self() { return static_cast<Self&>(*this); }
  const Self& self() const { return static_cast<const Self&>(*this); }

  static constexpr void require_indexed(const char*) {
    static_assert(Self::indexed,
                  "weft: positions/zip_eq/fold_chunks need an indexed pipeline (every item's "
                  "position known): they cannot follow filter, filter_map, flat_map, "
                  "fold, map_init, try_fold or while_some; apply them before");
  }
};

}  // namespace weft::detail
