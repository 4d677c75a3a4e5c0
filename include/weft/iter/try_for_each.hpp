// SPDX-License-Identifier: MIT
// try_for_each(f), try_for_each_init(init, f): f returns a try type (weft/try_traits.hpp);
// the run stops at the first failure in order and returns it. Each is find_first's search
// for the first failing result, over f's results. Guide: docs/guide.md#fallible-pipelines
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include "weft/iter/find.hpp"
#include "weft/iter/map.hpp"
#include "weft/iter/map_init.hpp"
#include "weft/iter/node.hpp"
#include "weft/plumbing/splitter.hpp"
#include "weft/try_traits.hpp"

namespace weft::detail {

template <class F, class... Args>
using try_result_t = std::remove_cvref_t<std::invoke_result_t<const F&, Args...>>;
template <class R>
using try_output_t = typename try_traits<R>::output_type;

template <class R>
bool try_succeeded(const R& r) {
  return static_cast<bool>(try_traits<R>::is_success(r));
}

// Stores the output of the success r in the engaged `to`: assigned in place when it can be
// (only the value is written), else made anew.
template <class T, class R>
void assign_output(std::optional<T>& to, R&& r) {
  using traits = try_traits<std::remove_cvref_t<R>>;
  if constexpr (std::is_move_assignable_v<T>)
    *to = traits::output(std::move(r));
  else
    to.emplace(traits::output(std::move(r)));
}

// The search's predicate: a failure matches.
template <class R>
struct try_failed {
  bool operator()(const R& r) const { return !try_succeeded(r); }
};

// What a try_ callable must return; false after a static_assert that says so.
template <class R>
constexpr bool require_try_result() {
  static_assert(try_type<R>,
                "weft: the callable of try_for_each, try_for_each_init or try_fold must return "
                "a try type: bool (true continues), std::optional<T> (std::nullopt fails), an "
                "expected-like type (has_value(), operator*, error()) or a type "
                "weft::try_traits is specialised for");
  return try_type<R>;
}

// The success try_for_each returns when no item fails: R holding a value-initialized
// output (true, std::optional<T>(T{}), an expected holding T{}).
template <class R>
R try_success() {
  static_assert(std::is_default_constructible_v<try_output_t<R>>,
                "weft: try_for_each(f): when no item fails it returns a success of f's result "
                "type R holding a value-initialized value, which R's output type must allow");
  return try_traits<R>::from_output(try_output_t<R>{});
}

// Runs the search for the first failing fn(item) and returns that failure, or R's success.
template <class R, template <class, class> class Folder, class N, class Fn>
R run_try_for_each(N& node, const Fn& fn, const plumbing::split_options& opt) {
  static constexpr try_failed<R> failed{};
  auto hit = find_ordered_through<true, R, Folder>(node, fn, failed, opt);
  return hit ? std::move(hit->second) : try_success<R>();
}

template <class Item, class N, class F>
auto try_for_each(N& node, const F& f, const plumbing::split_options& opt) {
  static_assert(const_invocable<F, Item>,
                "weft: try_for_each(f): f must be callable as f(item) on a const f "
                "(no mutable lambdas: it runs on several threads at once)");
  if constexpr (const_invocable<F, Item>) {
    using R = try_result_t<F, Item>;
    if constexpr (require_try_result<R>()) return run_try_for_each<R, map_folder>(node, f, opt);
  }
}

// The init and f of map_init; f's try results are searched as try_for_each's.
template <class Item, class N, class Init, class F>
auto try_for_each_init(N& node, const Init& init, const F& f, const plumbing::split_options& opt) {
  using R = try_result_t<F, init_state_t<Init>&, Item>;
  if constexpr (require_try_result<R>()) {
    const init_and_map<const Init&, const F&> fns{init, f};
    return run_try_for_each<R, map_init_folder>(node, fns, opt);
  }
}

}  // namespace weft::detail
