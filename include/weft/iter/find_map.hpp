// SPDX-License-Identifier: MIT
// find_map_any(f), find_map_first(f), find_map_last(f): f(item) returns a std::optional; the
// first, last or some engaged result. The searches of find.hpp over f's results.
#pragma once

#include <atomic>
#include <optional>
#include <utility>

#include "weft/iter/find.hpp"
#include "weft/iter/map.hpp"
#include "weft/iter/node.hpp"
#include "weft/plumbing/splitter.hpp"

namespace weft::detail {

struct is_engaged {
  template <class O>
  bool operator()(const O& o) const {
    return o.has_value();
  }
};

template <class Item, class F>
constexpr bool require_find_map() {
  static_assert(const_invocable<F, Item>,
                "weft: find_map_any/find_map_first/find_map_last(f): f must be callable as "
                "f(item) on a const f");
  if constexpr (const_invocable<F, Item>) {
    static_assert(is_optional<std::remove_cvref_t<std::invoke_result_t<const F&, Item>>>,
                  "weft: find_map_any/find_map_first/find_map_last(f): f must return a "
                  "std::optional");
    return is_optional<std::remove_cvref_t<std::invoke_result_t<const F&, Item>>>;
  }
  return false;
}

template <class Item, bool First, class N, class F>
auto find_map_ordered(N& node, const F& f, const plumbing::split_options& opt) {
  if constexpr (require_find_map<Item, F>()) {
    using O = std::remove_cvref_t<std::invoke_result_t<const F&, Item>>;
    static constexpr is_engaged engaged{};
    auto hit = find_ordered_through<First, O, map_folder>(node, f, engaged, opt);
    return hit ? std::move(hit->second) : O{};
  }
}

template <class Item, class N, class F>
auto find_map_any(N& node, const F& f, const plumbing::split_options& opt) {
  if constexpr (require_find_map<Item, F>()) {
    using O = std::remove_cvref_t<std::invoke_result_t<const F&, Item>>;
    using search = any_match_consumer<any_keeps_value<O>, is_engaged>;
    static constexpr is_engaged engaged{};
    std::atomic<bool> found{false};
    auto hit = drive(node, stage_over<F, map_folder>{&f}(search{&engaged, &found}), opt);
    return hit ? std::move(*hit) : O{};
  }
}

}  // namespace weft::detail
