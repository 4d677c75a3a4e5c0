// SPDX-License-Identifier: MIT
// The only place weft issues a standalone fence; ThreadSanitizer-aware.
// Protocol: docs/protocols/sleep.md, docs/protocols/injection.md
#pragma once

#include <atomic>

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

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace weft::detail
