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
// What the compiled core exports. libweft is built with hidden visibility and linked with
// src/exports.map (weft's names only: no instance of a standard template leaks out), so a
// shared libweft.so exports exactly the names marked WEFT_API, and this is their list (the
// scheduler's rt:: calls in detail/sched/runtime.hpp, the futex calls, the thread-locals
// that inline code and src/ share, and the block engine compiled for the algorithms and the
// pipelines' reductions: kernels/). The package test package.exports reads it and fails
// on a symbol of `nm -D --defined-only libweft.so` missing here, on one listed here that the
// library lacks, and on a different count of overloads (xN).
// exports:
//   weft::detail::algo::populate_for_write
//   weft::detail::algo::run_blocks  x14
//   weft::detail::current_gate
//   weft::detail::current_worker
//   weft::detail::fold_depth
//   weft::detail::futex_wait
//   weft::detail::futex_wake
//   weft::detail::outside_isolation_depth
//   weft::detail::rt::add_thread_limit
//   weft::detail::rt::configure_global
//   weft::detail::rt::create_registry
//   weft::detail::rt::destroy_registry
//   weft::detail::rt::detached_begin
//   weft::detail::rt::detached_end
//   weft::detail::rt::drop_revoked_bias
//   weft::detail::rt::enter_seat
//   weft::detail::rt::global_fork_would_wake
//   weft::detail::rt::global_num_threads
//   weft::detail::rt::global_registry
//   weft::detail::rt::inject
//   weft::detail::rt::inject_and_wait
//   weft::detail::rt::leave_seat
//   weft::detail::rt::num_threads
//   weft::detail::rt::numa_description
//   weft::detail::rt::numa_node_cpus
//   weft::detail::rt::numa_nodes
//   weft::detail::rt::outside_fifo
//   weft::detail::rt::post_mail
//   weft::detail::rt::remove_thread_limit
//   weft::detail::rt::report_task_exception
//   weft::detail::rt::share_all_work
//   weft::detail::rt::share_spawned_work
//   weft::detail::rt::settle_seat
//   weft::detail::rt::share_work
//   weft::detail::rt::shutdown_global
//   weft::detail::rt::stats
//   weft::detail::rt::stats_of_worker
//   weft::detail::rt::thread_limit_in_force
//   weft::detail::rt::wait_idle
//   weft::detail::rt::wait_idle_blocking
//   weft::detail::rt::wait_until
//   weft::detail::rt::wake_worker
//   weft::detail::rt::yield
//   weft::detail::this_thread_bias
// end of exports
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
