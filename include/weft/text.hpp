// SPDX-License-Identifier: MIT
// weft::str(text): pipelines over the pieces of a text (Rayon's ParallelString): lines,
// split, split_terminator, split_whitespace, matches, match_indices, chars and bytes. Each
// reads the text once, in blocks (iter/pieces.hpp). Separators and predicates see `char`s
// (bytes), whitespace is ASCII's; chars decodes UTF-8.
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "weft/iter.hpp"
#include "weft/iter/pieces.hpp"

namespace weft {

namespace detail {
struct text_piece {
  std::string_view operator()(const char* d, std::size_t s, std::size_t e) const {
    return {d + s, e - s};
  }
};
struct text_line {
  std::string_view operator()(const char* d, std::size_t s, std::size_t e) const {
    if (e > s && d[e - 1] == '\r') --e;
    return {d + s, e - s};
  }
};
struct text_match {
  std::pair<std::size_t, std::string_view> operator()(const char* d, std::size_t s,
                                                      std::size_t e) const {
    return {s, {d + s, e - s}};
  }
};
struct ascii_whitespace {
  bool operator()(char c) const {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
  }
};

// A separator or a pattern: one char (found with memchr) or a predicate on chars.
template <class P>
auto byte_matcher(P p) {
  if constexpr (std::is_same_v<P, char>) {
    return equals_byte{p};
  } else {
    static_assert(std::is_invocable_r_v<bool, const P&, char>,
                  "weft::str(text): a separator or pattern is a char or a predicate "
                  "callable as p(char) -> bool on a const p");
    return [p = std::move(p)](char c) { return static_cast<bool>(std::invoke(p, c)); };
  }
}
}  // namespace detail

/// Pipelines over the pieces of a text, which the caller keeps alive and unchanged while
/// they run (items are std::string_views into it). Made by weft::str(text). The pieces are
/// Rust's: lines() drops a final empty line and each line's carriage return, split keeps
/// empty pieces.
/// Each pipeline reads the text once; it is not indexed (filter, map, sum, find_first,
/// to_vector, ... apply; enumerate and zip do not).
class parallel_string {
 private:
  // Defined before its callers, which deduce their return types from it.
  template <class Rule>
  auto pieces(Rule rule) const {
    return detail::pieces_of(text_.data(), text_.size(), std::move(rule));
  }

 public:
  explicit parallel_string(std::string_view text) : text_(text) {}

  /// The lines: pieces ended by a newline or by the end of the text, without their newline
  /// or carriage return and newline; a final newline ends the last line instead of
  /// starting an empty one, and an empty text has none (Rust's lines).
  auto lines() const {
    return pieces(detail::separated_rule<detail::equals_byte, detail::text_line, false>{
        {'\n'}, {}});
  }
  /// The pieces between separators, empty ones included: n separators make n + 1 pieces
  /// ("a,,b," split at ',' is "a", "", "b", ""). `sep` is a char or a predicate p(char).
  template <class Sep>
  auto split(Sep sep) const {
    auto is = detail::byte_matcher(std::move(sep));
    return pieces(detail::separated_rule<decltype(is), detail::text_piece>{std::move(is), {}});
  }
  /// split(sep) without the empty piece after a final separator ("a.b." gives "a", "b").
  template <class Sep>
  auto split_terminator(Sep sep) const {
    auto is = detail::byte_matcher(std::move(sep));
    return pieces(
        detail::separated_rule<decltype(is), detail::text_piece, false>{std::move(is), {}});
  }
  /// The words: maximal runs without ASCII whitespace (space, tab, newline, vertical tab,
  /// form feed, carriage return); never empty (Rust's split_ascii_whitespace).
  auto split_whitespace() const {
    return pieces(detail::runs_between_gaps_rule<detail::ascii_whitespace, detail::text_piece>{});
  }
  /// Each char that matches `pattern` (a char, or a predicate p(char)), as a one-char view.
  template <class Pattern>
  auto matches(Pattern pattern) const {
    auto is = detail::byte_matcher(std::move(pattern));
    return pieces(detail::matches_rule<decltype(is), detail::text_piece>{std::move(is), {}});
  }
  /// matches(pattern) with each match's position: std::pair{position, view}.
  template <class Pattern>
  auto match_indices(Pattern pattern) const {
    auto is = detail::byte_matcher(std::move(pattern));
    return pieces(detail::matches_rule<decltype(is), detail::text_match>{std::move(is), {}});
  }
  /// The chars of UTF-8 text, decoded to char32_t code points (Rust's chars). Text that is
  /// not well-formed UTF-8 decodes as a lossy decoder's: each malformed piece (a stray
  /// continuation byte, a sequence cut short, an overlong form, a surrogate, past U+10FFFF)
  /// is one U+FFFD. Not indexed.
  auto chars() const { return pieces(detail::utf8_chars_rule{}); }
  /// The bytes, as `char`s: an indexed pipeline, weft::iter of the text.
  auto bytes() const { return weft::iter(text_); }

 private:
  std::string_view text_;
};

/// The text's pieces as pipelines (Rayon's par_lines, par_split, ...):
/// `weft::str(text).lines().map(parse).sum()`. Borrows the text: a std::string that is a
/// temporary is refused (its pieces would dangle); name it first.
inline parallel_string str(std::string_view text) { return parallel_string(text); }

template <class C, class Traits, class Alloc>
parallel_string str(std::basic_string<C, Traits, Alloc>&&) {
  static_assert(!std::is_same_v<C, C>,
                "weft::str(text): text is a temporary std::string, whose pieces would dangle "
                "once it is gone: keep it in a variable and pass that");
  return parallel_string(std::string_view());
}

}  // namespace weft
