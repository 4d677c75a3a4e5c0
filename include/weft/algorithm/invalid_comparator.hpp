// SPDX-License-Identifier: MIT
// weft::invalid_comparator: what an algorithm throws when its comparator's answers contradict
// each other in a way it notices for free. Why weft throws rather than guesses:
// docs/algorithms.md#invalid-comparators
#pragma once

#include <stdexcept>

namespace weft {

/// Thrown by a parallel sort, merge or set operation when a split of its input, found by a
/// binary search, comes out in an order that no strict weak order over sorted input can
/// give: the comparator is not a strict weak order, or (for merge, inplace_merge and the set
/// operations) an input is not sorted by it. What the algorithm leaves is what its other
/// exceptions leave: a permutation of the input where it rearranges one, a partly written
/// output where it writes one. Not every invalid comparator is caught; the ones that are not
/// give an unspecified order (and, rearranging, still a permutation).
class invalid_comparator : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace detail::algo {
// Out of line and cold: the checks that call it sit in loops of the valid path.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_invalid_comparator_cold() {
  throw invalid_comparator(
      "weft: the comparator is not a strict weak order, or an input is not sorted by it "
      "(the splits of a merge or set operation came out of order, or a selection's pivot "
      "compared less than itself)");
}
}  // namespace detail::algo

}  // namespace weft
