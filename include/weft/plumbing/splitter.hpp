// SPDX-License-Identifier: MIT
// The split budget: when a range is worth cutting in two. Walkthrough: docs/plumbing.md#the-splitter
#pragma once

#include <algorithm>
#include <cstddef>
#include <stop_token>

namespace weft::plumbing {

/// What a pipeline carries to the engine besides its items: grain controls (`with_min_len`,
/// `with_max_len`, `deterministic`; zero means "automatic") and a stop token (`with_stop`).
struct split_options {
  std::size_t min_len = 0;  ///< never cut a range into pieces shorter than this
  std::size_t max_len = 0;  ///< keep cutting until pieces are at most this long
  bool deterministic = false;  ///< fixed split tree: results independent of threads and timing
  std::stop_token stop = {};   ///< once stopped, no new block of items starts
};

/// Adaptive split budget (the scheme of Rayon's `Splitter`): start with one split per thread
/// and halve the budget at every cut, so an undisturbed run makes about 2 x threads leaves;
/// whenever a half is found running on another thread than the one that cut it (it was
/// stolen, so somebody is idle), refill the budget to the thread count. A range is also never
/// cut below `min_len`, and is always cut while longer than `max_len`.
/// A splitter is a small value: each half of a cut carries its own copy.
///
/// The budget `max_len` asks for: a budget of s cuts makes 2^(floor(log2 s) + 1) leaves
/// (s = 1: 2, s = 2 or 3: 4, ...), so s = m - 1, with m = ceil(len / max_len) the fewest
/// pieces that fit, makes the smallest power of two >= m, each of them at most max_len long.
/// (Rayon starts from len / max_len, which is m exactly when max_len divides len, and then
/// makes twice the leaves needed: with_max_len(n / 64) on one thread made 128 leaves of n / 128
/// items, and each leaf and its join cost ~0.1 us.)
inline constexpr std::size_t initial_splits_per_thread = 1;

class splitter {
 public:
  splitter(std::size_t len, std::size_t threads, std::size_t min_len, std::size_t max_len)
      : splits_(threads * initial_splits_per_thread), threads_(threads),
        min_len_(std::max<std::size_t>(min_len, 1)) {
    if (max_len > 0 && len > 0) {
      const std::size_t fewest_pieces = len / max_len + (len % max_len != 0);
      splits_ = std::max(splits_, fewest_pieces - 1);
    }
  }

  /// Whether a range of `len` items should be cut now; `stolen` says whether the range
  /// arrived on a different thread than the one that produced it.
  bool try_split(std::size_t len, bool stolen) {
    if (len / 2 < min_len_) return false;
    if (stolen) {
      splits_ = std::max(threads_, splits_ / 2);
      return true;
    }
    if (splits_ == 0) return false;
    splits_ /= 2;
    return true;
  }

 private:
  std::size_t splits_;
  std::size_t threads_;
  std::size_t min_len_;
};

}  // namespace weft::plumbing
