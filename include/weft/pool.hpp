// SPDX-License-Identifier: MIT
// Thread pools: weft::thread_pool, install, and the current pool's size and thread index.
// Design: docs/design.md#pools-and-seats
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

#include "weft/detail/fork/detached_impl.hpp"
#include "weft/detail/fork/fifo_impl.hpp"
#include "weft/detail/fork/join_impl.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft {

struct pool_options {
  /// Threads of the pool, the caller of `install` included. 0 means "as many as the
  /// hardware has".
  std::size_t num_threads = 0;
  /// Called with an exception that escaped a detached task (`spawn`), on the thread that ran
  /// it. Empty (the default): the exception is printed on stderr, then std::terminate, as a
  /// panicking spawned task aborts in Rayon. A handler that throws terminates.
  std::function<void(std::exception_ptr)> on_task_exception = {};
};

/// A work-stealing pool. `pool.install(f)` runs `f` on the pool; inside, every weft
/// operation (join, scope, iterators, algorithms) runs on this pool.
///
/// A pool of N threads has N - 1 background threads and one caller seat: the first outside
/// thread to call `install` runs `f` itself as the pool's worker 0, so no wake-up latency is
/// paid; concurrent outside callers hand their work to the background threads and block.
/// Thread safety: install may be called from any thread, including workers of other pools
/// (they keep working for their own pool while they wait). The destructor stops and joins
/// the threads; calling it from one of the pool's own tasks is a fatal error (it would
/// deadlock), and calling it while other threads are inside `install` is undefined.
class thread_pool {
 public:
  /// Starts `options.num_threads - 1` background threads (64 MiB stacks).
  /// Allocation: the pool's worker array, deques and latches. Exceptions: `std::bad_alloc`;
  /// a failure to create a thread is fatal (message on stderr, then abort).
  explicit thread_pool(pool_options options = {})
      : reg_(detail::rt::create_registry(
            options.num_threads != 0 ? options.num_threads : default_threads(),
            std::move(options.on_task_exception))) {}
  /// Waits for the pool's detached tasks (`spawn`), then stops and joins its threads.
  ~thread_pool() {
    wait_idle();
    detail::rt::destroy_registry(reg_);
  }
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  /// Runs `f()` on this pool and returns its result; rethrows what `f` throws.
  /// Precondition: `f` is callable with no arguments (checked at compile time). From one of
  /// this pool's own threads, `f` simply runs inline. Allocation: none (the job lives in
  /// this frame). Blocks the calling thread until `f` returns.
  template <class F>
  decltype(auto) install(F&& f) {
    static_assert(std::is_invocable_v<F&>,
                  "weft::thread_pool::install(f): `f` must be callable with no arguments");
    if (detail::worker* w = detail::current_worker; w != nullptr && w->reg == reg_)
      return std::invoke(f);
    return detail::run_in(reg_, f);
  }

  /// Starts `f()` on this pool and returns at once (a detached task, as `weft::spawn`).
  template <class F>
  void spawn(F&& f) {
    static_assert(std::is_invocable_v<std::decay_t<F>&>,
                  "weft::thread_pool::spawn(f): `f` must be callable with no arguments");
    detail::spawn_detached(reg_, std::forward<F>(f));
  }

  /// Starts `f()` on this pool in FIFO order and returns at once (as `weft::spawn_fifo`).
  template <class F>
  void spawn_fifo(F&& f) {
    static_assert(std::is_invocable_v<std::decay_t<F>&>,
                  "weft::thread_pool::spawn_fifo(f): `f` must be callable with no arguments");
    detail::spawn_fifo_detached(reg_, std::forward<F>(f));
  }

  /// Waits until no detached task of this pool is pending: one of the pool's threads runs
  /// the pool's work meanwhile, any other thread blocks. Must not be called from one of
  /// this pool's detached tasks.
  void wait_idle() noexcept {
    if (detail::worker* w = detail::current_worker; w != nullptr && w->reg == reg_)
      detail::rt::wait_idle(*w);
    else
      detail::rt::wait_idle_blocking(reg_);
  }

  /// Threads of this pool (caller seat included).
  std::size_t num_threads() const noexcept { return detail::rt::num_threads(reg_); }

  struct stats_snapshot {
    std::size_t threads;   ///< seats of the pool
    std::size_t sleeping;  ///< threads blocked in the kernel right now
    std::size_t inactive;  ///< threads not running a job (idle or sleeping)
  };
  /// A racy snapshot of the pool's sleep counters, for tests and monitoring.
  stats_snapshot stats() const noexcept {
    const auto s = detail::rt::stats(reg_);
    return {s.threads, s.sleeping, s.inactive};
  }

 private:
  static std::size_t default_threads() noexcept;
  detail::registry* reg_;
};

inline std::size_t thread_pool::default_threads() noexcept {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

/// Threads of the pool the calling thread works for (the global pool outside every pool;
/// called outside every pool, it creates the global pool if it does not exist yet).
/// Thread safety: any thread.
inline std::size_t num_threads() { return detail::rt::num_threads(detail::current_registry()); }

/// Index in [0, num_threads()) of the calling thread in its pool; empty outside a pool.
inline std::optional<std::size_t> thread_index() noexcept {
  if (detail::worker* w = detail::current_worker) return w->index;
  return std::nullopt;
}

}  // namespace weft
