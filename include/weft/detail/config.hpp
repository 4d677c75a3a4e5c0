// SPDX-License-Identifier: MIT
// Compiler attributes, WEFT_API, WEFT_TSAN and WEFT_ASSERT: the only macros weft defines.
#pragma once

#include <cstdio>
#include <cstdlib>

#if defined(__SANITIZE_THREAD__)
#define WEFT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WEFT_TSAN 1
#endif
#endif
#ifndef WEFT_TSAN
#define WEFT_TSAN 0
#endif

#define WEFT_COLD [[gnu::cold, gnu::noinline]]
#define WEFT_INLINE [[gnu::always_inline]] inline
// What the compiled core exports. libweft is built with hidden visibility, so a shared
// libweft.so exports exactly the names marked WEFT_API (detail/sched/runtime.hpp, the futex
// calls and the current-worker variable) and nothing else.
#define WEFT_API [[gnu::visibility("default")]]

namespace weft::detail {
// Constructor tag: leave the fields that only other threads read unwritten; the owner writes
// them later, before the object becomes reachable by another thread (e.g. job_header).
struct deferred_t {
  explicit deferred_t() = default;
};
inline constexpr deferred_t deferred{};

[[noreturn]] WEFT_COLD inline void fatal(const char* what) noexcept {
  std::fprintf(stderr, "weft: fatal: %s\n", what);
  std::fflush(stderr);
  std::abort();
}
}  // namespace weft::detail

#ifdef NDEBUG
#define WEFT_ASSERT(cond) static_cast<void>(0)
#else
#define WEFT_ASSERT(cond) \
  ((cond) ? static_cast<void>(0) : ::weft::detail::fatal("assertion failed: " #cond))
#endif
