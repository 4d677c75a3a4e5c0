// SPDX-License-Identifier: MIT
// Address-based wait/wake on a 32-bit atomic (Linux futex; C++20 atomic wait elsewhere).
#pragma once

#include <atomic>
#include <cstdint>

#include "weft/detail/config.hpp"

namespace weft::detail {

// Blocks while `word == expected`; may return spuriously: callers loop on their condition.
WEFT_API void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) noexcept;
// Wakes up to `count` waiters. Safe on an address whose object is gone (the kernel
// keys waiters by address; at worst a waiter on a reused address wakes spuriously).
WEFT_API void futex_wake(std::atomic<std::uint32_t>& word, int count) noexcept;

}  // namespace weft::detail
