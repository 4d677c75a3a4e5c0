// SPDX-License-Identifier: MIT
// Lexicographic comparison of two indexed pipelines (Rayon's cmp, partial_cmp, eq, ne, lt,
// le, gt, ge): a consumer over zip(other) that stops at the first unequal pair, as find_first
// does, then breaks a tie of the common prefix by length. A base of par_iter, written over
// its public adaptors.
#pragma once

#include <compare>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "weft/iter/fwd.hpp"

namespace weft::detail {

template <class Self>
class lexicographic_compare {
 public:
  /// [indexed] Whether both sides have the same length and equal items (`==`), pair by pair;
  /// stops at the first unequal pair. `other` is a range or an indexed pipeline.
  template <class Other>
  bool eq(Other&& other) && {
    auto rhs = weft::iter(std::forward<Other>(other));
    require_indexed_other<decltype(rhs)>();
    using A = typename Self::value_type;
    using B = typename decltype(rhs)::value_type;
    static_assert(std::equality_comparable_with<const A&, const B&>,
                  "weft: eq/ne(other): the items of both sides must be comparable with ==");
    if (self().size() != rhs.size()) return false;
    return std::move(self()).zip(std::move(rhs)).all([](const auto& p) {
      return static_cast<bool>(std::as_const(p.first) == std::as_const(p.second));
    });
  }
  template <class Other>
  bool eq(Other&& other) const& { return Self(self()).eq(std::forward<Other>(other)); }
  /// [indexed] !eq(other).
  template <class Other>
  bool ne(Other&& other) && { return !std::move(*this).eq(std::forward<Other>(other)); }
  template <class Other>
  bool ne(Other&& other) const& { return !eq(std::forward<Other>(other)); }

  /// [indexed] The lexicographic order of the two sides by `<=>`: the order of the first
  /// pair that is not equivalent, else the order of the lengths (a proper prefix is less).
  /// The result is the pair's comparison category (std::partial_ordering for floating
  /// point: a NaN makes the sides unordered, as Rayon's partial_cmp gives None).
  template <class Other>
  auto cmp(Other&& other) && {
    auto rhs = weft::iter(std::forward<Other>(other));
    require_indexed_other<decltype(rhs)>();
    using A = typename Self::value_type;
    using B = typename decltype(rhs)::value_type;
    static_assert(std::three_way_comparable_with<const A&, const B&>,
                  "weft: cmp/lt/le/gt/ge(other): the items of both sides must be comparable "
                  "with <=> (define operator<=>, or compare a projection: "
                  "a.map(key).cmp(b.map(key)))");
    if constexpr (std::three_way_comparable_with<const A&, const B&>) {
      using order = std::compare_three_way_result_t<const A&, const B&>;
      const std::size_t na = self().size();
      const std::size_t nb = rhs.size();
      auto first_unequal = std::move(self())
                               .zip(std::move(rhs))
                               .map([](const auto& p) -> order {
                                 return std::as_const(p.first) <=> std::as_const(p.second);
                               })
                               .find_first([](order o) { return o != 0; });
      if (first_unequal) return *first_unequal;
      return static_cast<order>(na <=> nb);
    }
  }
  template <class Other>
  auto cmp(Other&& other) const& { return Self(self()).cmp(std::forward<Other>(other)); }

  /// [indexed] cmp(other) < 0: this side comes first in lexicographic order.
  template <class Other>
  bool lt(Other&& other) && { return std::move(*this).cmp(std::forward<Other>(other)) < 0; }
  template <class Other>
  bool lt(Other&& other) const& { return cmp(std::forward<Other>(other)) < 0; }
  /// [indexed] cmp(other) <= 0.
  template <class Other>
  bool le(Other&& other) && { return std::move(*this).cmp(std::forward<Other>(other)) <= 0; }
  template <class Other>
  bool le(Other&& other) const& { return cmp(std::forward<Other>(other)) <= 0; }
  /// [indexed] cmp(other) > 0.
  template <class Other>
  bool gt(Other&& other) && { return std::move(*this).cmp(std::forward<Other>(other)) > 0; }
  template <class Other>
  bool gt(Other&& other) const& { return cmp(std::forward<Other>(other)) > 0; }
  /// [indexed] cmp(other) >= 0.
  template <class Other>
  bool ge(Other&& other) && { return std::move(*this).cmp(std::forward<Other>(other)) >= 0; }
  template <class Other>
  bool ge(Other&& other) const& { return cmp(std::forward<Other>(other)) >= 0; }

 private:
  Self& self() { return static_cast<Self&>(*this); }
  const Self& self() const { return static_cast<const Self&>(*this); }

  template <class Rhs>
  static constexpr void require_indexed_other() {
    static_assert(Self::indexed && Rhs::indexed,
                  "weft: eq/ne/cmp/lt/le/gt/ge(other): both sides must be indexed pipelines "
                  "(not after filter/filter_map/flat_map/fold/map_init/try_fold/while_some): "
                  "compare before them, or collect with to_vector() first");
  }
};

}  // namespace weft::detail
