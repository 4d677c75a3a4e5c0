// SPDX-License-Identifier: MIT
// The pieces of a contiguous sequence cut where a rule says (lines, separators, words, runs
// of equal neighbours): the engine behind weft::str(text) and weft::slice(v). How many
// pieces there are, and where each starts, is only known by reading the whole sequence, so
// the pipeline is over fixed blocks of positions instead: block b yields, in order, the
// pieces that *start* in it (flat_map of a sequential walk), reading past its end only to
// finish its last piece. Every piece starts in exactly one block, so each is yielded once and
// in order, in one pass over the data, as a hand-written split at block boundaries reads it.
//
// A Rule over elements T says:
//   start_limit(size)               pieces start in [0, limit): size, or size + 1 where an
//                                   empty piece may start at the end ("a," splits in two)
//   first_start(d, size, lo, hi)    the first piece start in [lo, hi), or npos; reads
//                                   elements in [lo - 3, hi) only (most rules [lo - 1, hi))
//   piece_end(d, size, start)       where the piece that starts at `start` ends
//   next_start(d, size, end, hi)    the next start after a piece ending at `end`, if it is
//                                   below hi, else npos
//   make(d, start, end)             the item for that piece
// All but piece_end read only inside their block (one element before it at most), so a block
// whose range holds no start costs a bounded scan; piece_end reads on to the piece's end.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <ranges>
#include <utility>

#include "weft/iter.hpp"

namespace weft::detail {

inline constexpr std::size_t no_piece = static_cast<std::size_t>(-1);

// The pieces that start in [lo, hi): a forward view walked by flat_map's leaf loop.
// (A view_base, not a view_interface: clang 14 cannot instantiate libstdc++ 12's
// view_interface over a class that is still incomplete.)
template <class T, class Rule>
class pieces_in_block : public std::ranges::view_base {
 public:
  pieces_in_block() = default;
  pieces_in_block(T* data, std::size_t size, std::size_t lo, std::size_t hi, const Rule* rule)
      : data_(data), size_(size), lo_(lo), hi_(hi), rule_(rule) {}

  class iterator {
   public:
    using value_type = decltype(std::declval<const Rule&>().make(
        std::declval<T*>(), std::size_t{}, std::size_t{}));
    using difference_type = std::ptrdiff_t;

    iterator() = default;
    iterator(const pieces_in_block* block, std::size_t start) : block_(block), start_(start) {
      if (start_ != no_piece) end_ = block_->rule_->piece_end(block_->data_, block_->size_, start_);
    }
    value_type operator*() const { return block_->rule_->make(block_->data_, start_, end_); }
    iterator& operator++() {
      const auto& b = *block_;
      start_ = b.rule_->next_start(b.data_, b.size_, end_, b.hi_);
      if (start_ != no_piece) end_ = b.rule_->piece_end(b.data_, b.size_, start_);
      return *this;
    }
    iterator operator++(int) {
      iterator was = *this;
      ++*this;
      return was;
    }
    bool operator==(const iterator& o) const { return start_ == o.start_; }
    bool operator==(std::default_sentinel_t) const { return start_ == no_piece; }

   private:
    const pieces_in_block* block_ = nullptr;
    std::size_t start_ = no_piece;
    std::size_t end_ = 0;
  };

  iterator begin() const {
    return iterator(this, rule_->first_start(data_, size_, lo_, hi_));
  }
  std::default_sentinel_t end() const { return {}; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t lo_ = 0;
  std::size_t hi_ = 0;
  const Rule* rule_ = nullptr;
};

// flat_map's callable: block b of the positions [0, limit).
template <class T, class Rule>
struct piece_blocks {
  T* data;
  std::size_t size;
  std::size_t limit;
  std::size_t block;
  Rule rule;

  pieces_in_block<T, Rule> operator()(std::size_t b) const {
    const std::size_t lo = b * block;
    return {data, size, lo, lo + std::min(block, limit - lo), &rule};
  }
};

// Block length: about 512 blocks per sequence, each 256 to 16 Ki positions. A block costs
// one flat_map item (tens of ns); 16 Ki bytes take ~1.5 us to stream, so the blocks' cost is
// ~2 % at most on a long text, while a 100 KB one still has ~400 blocks for a pool to share.
inline std::size_t piece_block_length(std::size_t limit) {
  return std::clamp<std::size_t>(limit / 512, 256, 16384);
}

// The pipeline of the pieces of d[0, size) under `rule`: not indexed (a piece's position is
// only known by counting the pieces before it).
template <class T, class Rule>
auto pieces_of(T* data, std::size_t size, Rule rule) {
  const std::size_t limit = Rule::start_limit(size);
  const std::size_t block = piece_block_length(limit);
  const std::size_t blocks = limit / block + (limit % block != 0);
  return weft::range(std::size_t{0}, blocks)
      .flat_map(piece_blocks<T, Rule>{data, size, limit, block, std::move(rule)});
}

// ---- rules ------------------------------------------------------------------------------

// Finds the first element in [from, to) for which `is` holds; `to` if none.
template <class T, class Is>
std::size_t find_in(T* d, std::size_t from, std::size_t to, const Is& is) {
  for (std::size_t p = from; p < to; ++p)
    if (is(d[p])) return p;
  return to;
}

// A byte equal to c: found by memchr, which reads 16 to 64 bytes a step.
struct equals_byte {
  char c;
  bool operator()(char x) const { return x == c; }
};
inline std::size_t find_in(const char* d, std::size_t from, std::size_t to, const equals_byte& is) {
  if (from >= to) return to;
  const void* hit = std::memchr(d + from, is.c, to - from);
  return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - d) : to;
}

// Pieces between separators (`is(x)`: x separates), empty ones included: n separators make
// n + 1 pieces (Rust's split). Without TrailingPiece, a separator at the end starts no piece
// and an empty sequence has none (Rust's lines). Make(d, s, e) builds the item.
template <class Is, class Make, bool TrailingPiece = true>
struct separated_rule {
  Is is;
  Make make_piece;

  static std::size_t start_limit(std::size_t size) { return TrailingPiece ? size + 1 : size; }
  template <class T>
  std::size_t first_start(T* d, std::size_t, std::size_t lo, std::size_t hi) const {
    if (lo == 0) return 0;
    const std::size_t p = find_in(d, lo - 1, hi - 1, is);
    return p < hi - 1 ? p + 1 : no_piece;
  }
  template <class T>
  std::size_t piece_end(T* d, std::size_t size, std::size_t start) const {
    return find_in(d, start, size, is);
  }
  template <class T>
  static std::size_t next_start(T*, std::size_t size, std::size_t end, std::size_t hi) {
    return end < size && end + 1 < hi ? end + 1 : no_piece;
  }
  template <class T>
  auto make(T* d, std::size_t s, std::size_t e) const { return make_piece(d, s, e); }
};

// Maximal runs of elements for which `is_gap` is false (Rust's split_whitespace with
// is_gap = whitespace): no empty pieces.
template <class IsGap, class Make>
struct runs_between_gaps_rule {
  IsGap is_gap;
  Make make_piece;

  static std::size_t start_limit(std::size_t size) { return size; }
  template <class T>
  std::size_t first_start(T* d, std::size_t, std::size_t lo, std::size_t hi) const {
    for (std::size_t p = lo; p < hi; ++p)
      if (!is_gap(d[p]) && (p == 0 || is_gap(d[p - 1]))) return p;
    return no_piece;
  }
  template <class T>
  std::size_t piece_end(T* d, std::size_t size, std::size_t start) const {
    return find_in(d, start, size, is_gap);
  }
  template <class T>
  std::size_t next_start(T* d, std::size_t, std::size_t end, std::size_t hi) const {
    const std::size_t p = find_in(d, end, std::max(end, hi), [this](const auto& x) { return !is_gap(x); });
    return p < hi ? p : no_piece;
  }
  template <class T>
  auto make(T* d, std::size_t s, std::size_t e) const { return make_piece(d, s, e); }
};

// Maximal runs in which every two neighbours a, b satisfy together(a, b) (Rust's chunk_by).
template <class Together, class Make>
struct runs_of_neighbours_rule {
  Together together;
  Make make_piece;

  static std::size_t start_limit(std::size_t size) { return size; }
  template <class T>
  std::size_t first_start(T* d, std::size_t, std::size_t lo, std::size_t hi) const {
    if (lo == 0) return 0;
    for (std::size_t p = lo; p < hi; ++p)
      if (!together(d[p - 1], d[p])) return p;
    return no_piece;
  }
  template <class T>
  std::size_t piece_end(T* d, std::size_t size, std::size_t start) const {
    for (std::size_t p = start + 1; p < size; ++p)
      if (!together(d[p - 1], d[p])) return p;
    return size;
  }
  template <class T>
  static std::size_t next_start(T*, std::size_t, std::size_t end, std::size_t hi) {
    return end < hi ? end : no_piece;
  }
  template <class T>
  auto make(T* d, std::size_t s, std::size_t e) const { return make_piece(d, s, e); }
};

// Single elements for which `is` holds, as make(d, p, p + 1) (Rust's match_indices of a
// char pattern).
template <class Is, class Make>
struct matches_rule {
  Is is;
  Make make_piece;

  static std::size_t start_limit(std::size_t size) { return size; }
  template <class T>
  std::size_t first_start(T* d, std::size_t, std::size_t lo, std::size_t hi) const {
    const std::size_t p = find_in(d, lo, hi, is);
    return p < hi ? p : no_piece;
  }
  template <class T>
  static std::size_t piece_end(T*, std::size_t, std::size_t start) { return start + 1; }
  template <class T>
  std::size_t next_start(T* d, std::size_t, std::size_t end, std::size_t hi) const {
    const std::size_t p = find_in(d, end, std::max(end, hi), is);
    return p < hi ? p : no_piece;
  }
  template <class T>
  auto make(T* d, std::size_t s, std::size_t e) const { return make_piece(d, s, e); }
};

// The chars of UTF-8 text, decoded (Rust's chars, for text that may be malformed). A char
// starts at every byte that is not a continuation byte (10xxxxxx), and at a continuation
// byte that no lead byte within the 3 before it covers (a stray one); a lead's char runs over
// the continuation bytes after it, up to the length its lead declares. A well-formed
// sequence is its code point; anything else (a stray or missing continuation byte, an
// overlong form, a surrogate, past U+10FFFF) is U+FFFD, one per piece. Whether a byte
// starts a char depends on the 3 bytes before it at most, so blocks decide it alone.
struct utf8_chars_rule {
  static constexpr char32_t replacement = 0xFFFD;

  static bool continuation(unsigned char b) { return (b & 0xC0) == 0x80; }
  // The length a lead byte declares: 1 for ASCII, 2 to 4 for a lead, 0 for a continuation
  // byte or a byte no UTF-8 sequence starts with (C0, C1, F5 to FF: a char of one byte).
  static std::size_t declared(unsigned char b) {
    if (b < 0x80) return 1;
    if (b >= 0xC2 && b <= 0xDF) return 2;
    if (b >= 0xE0 && b <= 0xEF) return 3;
    if (b >= 0xF0 && b <= 0xF4) return 4;
    return 0;
  }
  static bool starts(const char* d, std::size_t p) {
    const auto b = static_cast<unsigned char>(d[p]);
    if (!continuation(b)) return true;
    for (std::size_t back = 1; back <= 3 && back <= p; ++back) {
      const auto q = static_cast<unsigned char>(d[p - back]);
      if (!continuation(q)) return !(declared(q) > back);  // covered by the lead at p - back
    }
    return true;  // 3 continuation bytes before it, or the text's start: stray
  }

  static std::size_t start_limit(std::size_t size) { return size; }
  static std::size_t first_start(const char* d, std::size_t, std::size_t lo, std::size_t hi) {
    for (std::size_t p = lo; p < hi; ++p)
      if (starts(d, p)) return p;
    return no_piece;
  }
  static std::size_t piece_end(const char* d, std::size_t size, std::size_t start) {
    const auto b = static_cast<unsigned char>(d[start]);
    const std::size_t len = declared(b);
    std::size_t end = start + 1;
    if (len > 1)
      while (end < size && end < start + len && continuation(static_cast<unsigned char>(d[end])))
        ++end;
    return end;
  }
  static std::size_t next_start(const char*, std::size_t, std::size_t end, std::size_t hi) {
    return end < hi ? end : no_piece;
  }
  static char32_t make(const char* d, std::size_t s, std::size_t e) {
    const auto b = static_cast<unsigned char>(d[s]);
    const std::size_t len = declared(b);
    if (len == 1) return b;
    if (len == 0 || e - s != len) return replacement;
    char32_t c = b & (0x7F >> len);
    for (std::size_t i = s + 1; i < e; ++i) c = (c << 6) | (static_cast<unsigned char>(d[i]) & 0x3F);
    constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return replacement;
    return c;
  }
};

}  // namespace weft::detail
