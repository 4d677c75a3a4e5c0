// SPDX-License-Identifier: MIT
// What the searches that stop early share, for the pipelines' searches (iter/find.hpp) and
// the algorithms' block searches alike: the search protocol (tags S1-S2), the ordered
// search's index range, and the scan that tests a group of items with no branch per item.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

namespace weft::detail {

// Search protocol. Every leaf of one search shares one atomic in the caller's frame:
//   any / find_any:  `found` (bool), set by the first leaf with a match;
//   find_first:      `best` = the least producer index of a match seen so far;
//   find_last:       `best` = the greatest such index, plus one (0: none); only for a
//                    flat_map whose inner ranges go forward only: the other pipelines run
//                    find_first over their positions reversed (par_iter::find_ordered,
//                    drive_reversed), so the search starts at the end.
//   I1  `best` only moves toward the answer (CAS-min / CAS-max); `found` only false -> true.
//   I2  A consumer whose whole range lies on the losing side of `best` may stop at once:
//       every match it could find would lose to one already recorded. Its empty result
//       is never chosen by the ordered reduction, because the winning match's leaf returns
//       it and reduce prefers the left (find_first) or right (find_last) side.
//   | tag | op                         | order   | why                                       |
//   |-----|----------------------------|---------|-------------------------------------------|
//   | S1  | CAS / store of best, found | relaxed | only prunes work (I2); the value itself   |
//   |     |                            |         | travels in the leaf's result through join |
//   | S2  | load in full()             | relaxed | as S1: a stale read costs one more block  |
inline constexpr std::size_t no_index = std::numeric_limits<std::size_t>::max();

inline void record_min(std::atomic<std::size_t>& best, std::size_t i) {
  std::size_t cur = best.load(std::memory_order_relaxed);
  while (i < cur && !best.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {  // S1
  }
}
inline void record_max(std::atomic<std::size_t>& best, std::size_t i) {
  std::size_t cur = best.load(std::memory_order_relaxed);
  while (i > cur && !best.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {  // S1
  }
}

// What every consumer of an ordered search (find_first, find_last, position_first, and the
// algorithms' block searches) shares: its index range of the input and the best match so
// far. `best` is the least match index (First) or the greatest plus one (!First, 0: none).
template <bool First>
struct ordered_search_range {
  std::atomic<std::size_t>* best;
  std::size_t lo;
  std::size_t hi;

  std::pair<ordered_search_range, ordered_search_range> split_at(std::size_t i) const {
    return {{best, lo, lo + i}, {best, lo + i, hi}};
  }
  void record(std::size_t at) const {
    if constexpr (First)
      record_min(*best, at);
    else
      record_max(*best, at + 1);
  }
  // I2: every match this range could find loses to one already recorded.
  bool full() const {
    const std::size_t b = best->load(std::memory_order_relaxed);  // S2
    if constexpr (First)
      return b < lo;  // a match left of this whole range (b == no_index: none yet)
    else
      return b > hi;  // a match right of this whole range (stored as index + 1)
  }
  // Which half's result the ordered reduction keeps: the left one's match for First, the
  // right one's for !First, else the other.
  static constexpr bool keep_left(bool left_found, bool right_found) {
    return First ? left_found : !right_found;
  }
};

inline constexpr std::size_t find_group = 16;

// Whether a search may test a producer's items a group at a time: items read from memory
// (indexing has no user code to run twice) of a small trivially copyable type.
template <class P>
concept groups_items = std::is_lvalue_reference_v<decltype(std::declval<const P&>()[0])> &&
                       std::is_trivially_copyable_v<
                           std::remove_cvref_t<decltype(std::declval<const P&>()[0])>> &&
                       sizeof(std::remove_cvref_t<decltype(std::declval<const P&>()[0])>) <= 16;

// Tests the indices of [from, to) a group of find_group at a time, the tests of a group
// evaluated with no branch per index, so that a cheap test vectorises. Returns the first
// index whose test holds, with `found` set; or, with `found` false, the start of the untested
// tail (fewer than find_group indices) that the caller tests one by one. A test may thus run
// on up to find_group - 1 indices past the first match.
// Descending: the groups are taken from the top of [from, to) (each still tested upwards);
// returns the last index whose test holds, or the end of the untested head [from, result).
template <bool Descending = false, class Test>
std::size_t scan_groups(std::size_t from, std::size_t to, const Test& test, bool& found) {
  std::size_t lo = from, hi = to;  // the untested indices
  while (hi - lo >= find_group) {
    const std::size_t i = Descending ? hi - find_group : lo;
    // The flags as bytes 0 or 1, read back as two words: "any match" is one OR, and the
    // first match is the lowest set byte, the last the highest (a bool array searched byte
    // by byte compiles to four times the instructions per item: find_first over 1,000 int32
    // takes 230 ns that way, 120 ns this way, std::find_if 130).
    unsigned char flag[find_group];
    for (std::size_t j = 0; j < find_group; ++j)
      flag[j] = static_cast<unsigned char>(static_cast<bool>(test(i + j)));
    std::uint64_t low, high;
    std::memcpy(&low, flag, sizeof low);
    std::memcpy(&high, flag + sizeof low, sizeof high);
    if ((low | high) != 0) [[unlikely]] {
      found = true;
      if constexpr (Descending)
        return i + (high != 0 ? 8 + static_cast<std::size_t>(63 - std::countl_zero(high)) / 8
                              : static_cast<std::size_t>(63 - std::countl_zero(low)) / 8);
      else
        return i + (low != 0 ? static_cast<std::size_t>(std::countr_zero(low)) / 8
                             : 8 + static_cast<std::size_t>(std::countr_zero(high)) / 8);
    }
    if constexpr (Descending)
      hi = i;
    else
      lo = i + find_group;
  }
  found = false;
  return Descending ? hi : lo;
}

}  // namespace weft::detail
