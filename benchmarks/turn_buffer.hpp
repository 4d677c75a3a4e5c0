// SPDX-License-Identifier: MIT
// turn_buffer<T>: the vector of a turn's own large buffer (an output, a copy of the input),
// whose memory the process keeps from one turn to the next.
//
// Why: if each turn of a peer makes its buffer afresh, then on the reference machine freeing
// a few hundred MB and allocating them again leaves the next turn's first passes slow for a
// while: a two-thread transform of 50 M doubles takes 110-370 ms on its first call instead of
// 13 and is still slow on some later calls, for plain std::threads, OpenMP and weft alike,
// but only for the turn that follows the sequential peer's
// (docs/decisions/0009-benchmark-method.md). So the peer in that slot loses its timed calls
// to the previous turn's page churn. A buffer the process keeps is resident before the turn starts,
// as a real program's output is when it calls the same algorithm again. Only the harness's
// buffers are kept: what an algorithm allocates for itself (a sort's scratch, a parallel
// copy_if's flags) still comes from the system allocator and is the algorithm's cost.
#pragma once

#include <cstddef>
#include <mutex>
#include <new>
#include <vector>

namespace weft_bench {

// A cache of freed blocks: handed out again to a request of exactly their size and
// alignment (a workload's turns all ask for the same sizes). It holds a few blocks at most;
// past that the oldest is freed. Turns run one at a time, but the mutex keeps it correct if
// a peer ever makes its buffer on another thread.
class kept_blocks {
 public:
  static kept_blocks& instance() {
    static kept_blocks cache;
    return cache;
  }

  void* take(std::size_t bytes, std::size_t align) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (auto it = blocks_.begin(); it != blocks_.end(); ++it)
        if (it->bytes == bytes && it->align == align) {
          void* p = it->p;
          blocks_.erase(it);
          return p;
        }
    }
    return ::operator new(bytes, std::align_val_t{align});
  }

  void give_back(void* p, std::size_t bytes, std::size_t align) noexcept {
    block oldest{};
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (blocks_.size() == max_blocks) {
        oldest = blocks_.front();
        blocks_.erase(blocks_.begin());
      }
      blocks_.push_back({p, bytes, align});  // capacity reserved: cannot throw
    }
    if (oldest.p != nullptr) ::operator delete(oldest.p, std::align_val_t{oldest.align});
  }

  kept_blocks(const kept_blocks&) = delete;
  kept_blocks& operator=(const kept_blocks&) = delete;

 private:
  struct block {
    void* p;
    std::size_t bytes, align;
  };
  static constexpr std::size_t max_blocks = 4;

  kept_blocks() { blocks_.reserve(max_blocks); }
  ~kept_blocks() {
    for (const block& b : blocks_) ::operator delete(b.p, std::align_val_t{b.align});
  }

  std::mutex mutex_;
  std::vector<block> blocks_;
};

template <class T>
struct kept_allocator {
  using value_type = T;

  kept_allocator() = default;
  template <class U>
  kept_allocator(const kept_allocator<U>&) noexcept {}  // NOLINT: rebinding is implicit

  T* allocate(std::size_t n) {
    return static_cast<T*>(kept_blocks::instance().take(n * sizeof(T), alignof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    kept_blocks::instance().give_back(p, n * sizeof(T), alignof(T));
  }

  template <class U>
  friend bool operator==(const kept_allocator&, const kept_allocator<U>&) noexcept {
    return true;
  }
};

template <class T>
using turn_buffer = std::vector<T, kept_allocator<T>>;

}  // namespace weft_bench
