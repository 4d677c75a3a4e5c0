// SPDX-License-Identifier: MIT
// The only place weft issues a standalone fence (ThreadSanitizer-aware), and late_atomic.
// Protocol: docs/protocols/sleep.md, docs/protocols/injection.md
#pragma once

#include <atomic>
#include <memory>

#include "weft/detail/config.hpp"

namespace weft::detail {

#if WEFT_TSAN
// TSan does not model std::atomic_thread_fence. Under TSan every fence becomes a
// seq_cst read-modify-write of one shared word: all fences are then totally ordered
// RMWs on a single location, which TSan understands and which is at least as strong.
inline std::atomic<unsigned> tsan_fence_word{0};
inline void fence_seq_cst() noexcept { tsan_fence_word.fetch_add(0, std::memory_order_seq_cst); }
#else
inline void fence_seq_cst() noexcept { std::atomic_thread_fence(std::memory_order_seq_cst); }
#endif

// An atomic whose lifetime starts at construction or at construct(): for a field that only
// matters once its object is shared with other threads, so that an object that never is
// shared pays no store for it. Reading it before it was constructed is undefined.
template <class T>
class late_atomic {
 public:
  explicit late_atomic(deferred_t) noexcept {}
  explicit late_atomic(T value) noexcept : value_(value) {}
  late_atomic(const late_atomic&) = delete;
  late_atomic& operator=(const late_atomic&) = delete;

  // Starts (or restarts) the atomic's lifetime with `value`. Plain stores: only while no
  // other thread can reach the object; a later release publishes them.
  void construct(T value) noexcept { std::construct_at(&value_, value); }
  std::atomic<T>& get() noexcept { return value_; }
  const std::atomic<T>& get() const noexcept { return value_; }

 private:
  union {
    std::atomic<T> value_;
  };
};

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace weft::detail
