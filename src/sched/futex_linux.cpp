// SPDX-License-Identifier: MIT
// futex_wait / futex_wake: the Linux system call, and C++20 atomic wait elsewhere.
#include "weft/detail/sync/futex.hpp"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace weft::detail {

#if defined(__linux__)
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected,
          nullptr, nullptr, 0);
}
void futex_wake(std::atomic<std::uint32_t>& word, int count) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, count, nullptr,
          nullptr, 0);
}
#else
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) noexcept {
  word.wait(expected, std::memory_order_acquire);
}
void futex_wake(std::atomic<std::uint32_t>& word, int count) noexcept {
  if (count == 1)
    word.notify_one();
  else
    word.notify_all();
}
#endif

}  // namespace weft::detail
