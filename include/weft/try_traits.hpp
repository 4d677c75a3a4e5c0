// SPDX-License-Identifier: MIT
// weft::try_traits<R>: how the fallible pipelines (try_for_each, try_reduce, try_fold) read
// what a callable returns. Guide: docs/guide.md#fallible-pipelines
#pragma once

#include <concepts>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

namespace weft {

/// Describes a "try type" R: a result that is either a success carrying a value or a
/// failure (Rayon's `Try`). A specialisation has
///   using output_type = T;                  what a success carries
///   static bool is_success(const R& r);     false: r is a failure, which stops the run
///   static T output(R&& r);                 the value of a success
///   static R from_output(T&& v);            a success holding v
/// weft describes `bool` (true is a success; T = std::monostate), `std::optional<T>`
/// (std::nullopt is the failure) and every expected-like type: a class with `has_value()`,
/// `operator*` and `error()`, such as std::expected or tl::expected (T is its value type, or
/// std::monostate when that is void). Specialise it for another result type; the primary
/// template is empty, and a type it leaves empty is not a try type (`weft::try_type`).
template <class R>
struct try_traits {};

template <>
struct try_traits<bool> {
  using output_type = std::monostate;
  static constexpr bool is_success(bool r) noexcept { return r; }
  static constexpr output_type output(bool) noexcept { return {}; }
  static constexpr bool from_output(output_type) noexcept { return true; }
};

template <class T>
struct try_traits<std::optional<T>> {
  using output_type = T;
  static constexpr bool is_success(const std::optional<T>& r) noexcept { return r.has_value(); }
  static constexpr T output(std::optional<T>&& r) { return *std::move(r); }
  static constexpr std::optional<T> from_output(T&& v) { return std::optional<T>(std::move(v)); }
};

/// A class with `has_value()`, `operator*` and `error()`: std::expected, tl::expected, or a
/// result type of one's own with that shape.
template <class R>
concept expected_like = std::is_class_v<R> && requires(R& r) {
  { r.has_value() } -> std::convertible_to<bool>;
  *r;
  r.error();
};

template <expected_like R>
struct try_traits<R> {
 private:
  using deref_type = decltype(*std::declval<R>());
  static constexpr bool carries_nothing = std::is_void_v<deref_type>;

 public:
  using output_type =
      std::conditional_t<carries_nothing, std::monostate, std::remove_cvref_t<deref_type>>;
  static constexpr bool is_success(const R& r) noexcept(noexcept(r.has_value())) {
    return static_cast<bool>(r.has_value());
  }
  static constexpr output_type output(R&& r) {
    if constexpr (carries_nothing)
      return {};
    else
      return *std::move(r);
  }
  static constexpr R from_output(output_type&& v) {
    if constexpr (carries_nothing)
      return R();
    else
      return R(std::move(v));
  }
};

/// Whether try_traits describes R (every member above, with the types above).
template <class R>
concept try_type = requires(const R& cr, R&& r, typename try_traits<R>::output_type&& v) {
  { try_traits<R>::is_success(cr) } -> std::convertible_to<bool>;
  { try_traits<R>::output(std::move(r)) } -> std::same_as<typename try_traits<R>::output_type>;
  { try_traits<R>::from_output(std::move(v)) } -> std::same_as<R>;
};

}  // namespace weft
