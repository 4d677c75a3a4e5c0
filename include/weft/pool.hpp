// SPDX-License-Identifier: MIT
// Thread pools: weft::thread_pool, install, and the current pool's size and thread index.
// Design: docs/design.md#pools-and-seats
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/detail/config.hpp"
#include "weft/detail/fork/detached_impl.hpp"
#include "weft/detail/fork/fifo_impl.hpp"
#include "weft/detail/fork/join_impl.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft {

namespace pin {
/// `pool_options::pin = weft::pin::compact`: background thread i runs on the i-th CPU of this
/// process's affinity mask in topology order, a core's hardware threads next to each other
/// (a pool shares caches; wraps around when there are more threads than CPUs).
struct compact_t {};
inline constexpr compact_t compact{};
/// `pool_options::pin = weft::pin::spread`: one hardware thread of every core first,
/// alternating between packages, then the cores' second hardware threads (a pool spreads
/// over memory bandwidth and caches; wraps around likewise).
struct spread_t {};
inline constexpr spread_t spread{};
}  // namespace pin

/// Where a pool's background threads run: not pinned (the default), a CPU list
/// (`{0, 2, 4, 6}`: thread i on the CPU at position i modulo the list's length), or
/// `weft::pin::compact` / `weft::pin::spread`. The topology comes from
/// /sys/devices/system/cpu (a CPU without it counts as a core of its own). Index 0, the
/// caller seat, is the caller's thread and is never pinned; list position 0 is for it.
class pinning {
 public:
  pinning() noexcept = default;
  pinning(std::initializer_list<unsigned> cpus) : config_{policy::cpus, cpus} {}
  explicit pinning(std::vector<unsigned> cpus) : config_{policy::cpus, std::move(cpus)} {}
  pinning(pin::compact_t) noexcept : config_{policy::compact, {}} {}  // NOLINT: implicit on purpose
  pinning(pin::spread_t) noexcept : config_{policy::spread, {}} {}    // NOLINT: implicit on purpose
  /// Internal: what the pool is built with. Not part of the API.
  const detail::rt::pin_config& config() const noexcept { return config_; }

 private:
  using policy = detail::rt::pin_config::policy;
  detail::rt::pin_config config_;
};

namespace numa {
/// `pool_options::numa = weft::numa::spread`: background thread i runs on the CPUs of NUMA
/// node `nodes()[i % nodes().size()]` (the caller seat, index 0, counts as the first node's),
/// and each thread's queue memory is bound to its node: a pool that spans sockets keeps each
/// thread's scheduling state local to it.
struct spread_t {};
inline constexpr spread_t spread{};
/// `pool_options::numa = weft::numa::node(k)`: every background thread runs on the CPUs of
/// NUMA node k (its OS number, as numactl and /sys/devices/system/node count), and every
/// thread's queue memory is bound to it; a pool of `num_threads` 0 gets one thread per CPU
/// of the node. `weft::numa::per_node_pools` builds one such pool per node.
struct node {
  explicit constexpr node(unsigned os_index) noexcept : index(os_index) {}
  unsigned index;
};
}  // namespace numa

/// Which NUMA nodes a pool's threads run on (`pool_options::numa`): not placed (the
/// default), `weft::numa::spread` or `weft::numa::node(k)`. The topology comes from hwloc,
/// loaded at run time; where weft was built without it, where libhwloc cannot be loaded, or
/// where `spread` finds a single node, placement is a no-op and says so once on stderr
/// (`weft::numa::describe()` says the same without a pool).
class numa_placement {
 public:
  numa_placement() noexcept = default;
  numa_placement(numa::spread_t) noexcept : config_{policy::spread, 0} {}  // NOLINT: implicit on purpose
  numa_placement(numa::node n) noexcept : config_{policy::node, n.index} {}  // NOLINT: implicit on purpose
  /// Internal: what the pool is built with. Not part of the API.
  const detail::rt::numa_config& config() const noexcept { return config_; }

 private:
  using policy = detail::rt::numa_config::policy;
  detail::rt::numa_config config_;
};

struct pool_options {
  /// Threads of the pool, the caller of `install` included. 0 means "as many as the
  /// hardware has" (for the global pool: `WEFT_NUM_THREADS`, else the hardware's count).
  std::size_t num_threads = 0;
  /// Called with an exception that escaped a detached task (`spawn`), on the thread that ran
  /// it. Empty (the default): the exception is printed on stderr, then std::terminate, as a
  /// panicking spawned task aborts in Rayon. A handler that throws terminates.
  std::function<void(std::exception_ptr)> on_task_exception = {};
  /// Name prefix of the pool's background threads: thread i is "<thread_name>-<i>", cut to
  /// Linux's 15 characters (what `top -H`, gdb and perf show). Empty: "weft".
  std::string thread_name = {};
  /// Stack size of the pool's background threads in bytes, rounded up to whole pages and to
  /// at least PTHREAD_STACK_MIN. 0: 64 MiB (deep recursion through joins needs room). The
  /// caller seat runs on its caller's own stack.
  std::size_t stack_size = 0;
  /// Called on each background thread (indices 1 to num_threads - 1) with its index, once,
  /// before it runs any work: to pin it, name it further, or set thread-local state.
  /// The caller seat (index 0) is the calling thread of `install`, not the pool's: no
  /// handler runs for it. A handler that throws terminates.
  std::function<void(std::size_t)> on_thread_start = {};
  /// Called on each background thread with its index, once, after its last work, while
  /// the pool's destructor waits for it. A handler that throws terminates.
  std::function<void(std::size_t)> on_thread_exit = {};
  /// Where the background threads run (`sched_setaffinity`): a CPU list,
  /// `weft::pin::compact` or `weft::pin::spread`; each thread starts pinned, before its
  /// start handler. Default: not pinned. `std::invalid_argument` from the pool's
  /// constructor for an empty list or a CPU this process may not run on.
  pinning pin = {};
  /// Which NUMA nodes the threads run on, and where their queues' memory lives:
  /// `weft::numa::spread` or `weft::numa::node(k)`; default: not placed. A thread starts on
  /// its node's CPUs (those of this process's affinity mask), before its start handler; its
  /// task arena is allocated by the thread itself, so it is local too. Setting both `pin`
  /// and `numa` is a `std::invalid_argument`, as is a node that does not exist or has none
  /// of this process's CPUs.
  numa_placement numa = {};
};

namespace detail {
inline rt::pool_config config_of(pool_options&& o) {
  return {o.num_threads,          std::move(o.on_task_exception), std::move(o.thread_name),
          o.stack_size,           std::move(o.on_thread_start),   std::move(o.on_thread_exit),
          o.pin.config(),         o.numa.config()};
}
}  // namespace detail

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
///
/// Movable: a moved-from pool is empty (`valid()` is false); destroying or assigning to it
/// is all it supports.
class thread_pool {
 public:
  /// Starts `options.num_threads - 1` background threads.
  /// Allocation: the pool's worker array, deques and latches. Exceptions: `std::bad_alloc`;
  /// `std::invalid_argument` for a stack size the system refuses; a failure to create a
  /// thread is fatal (message on stderr, then abort).
  explicit thread_pool(pool_options options = {}) {
    if (options.num_threads == 0) options.num_threads = default_threads(options.numa);
    reg_ = detail::rt::create_registry(detail::config_of(std::move(options)));
  }
  /// Waits for the pool's detached tasks (`spawn`), then stops and joins its threads.
  ~thread_pool() { reset(); }
  thread_pool(thread_pool&& other) noexcept : reg_(std::exchange(other.reg_, nullptr)) {}
  /// Destroys this pool first (as its destructor does), then takes `other`'s.
  thread_pool& operator=(thread_pool&& other) noexcept {
    if (this != &other) {
      reset();
      reg_ = std::exchange(other.reg_, nullptr);
    }
    return *this;
  }
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  /// False for a moved-from pool.
  bool valid() const noexcept { return reg_ != nullptr; }

  /// Runs `f()` on this pool and returns its result; rethrows what `f` throws.
  /// Precondition: `f` is callable with no arguments (checked at compile time). From one of
  /// this pool's own threads, `f` simply runs inline. Allocation: none (the job lives in
  /// this frame). Blocks the calling thread until `f` returns.
  template <class F>
  decltype(auto) install(F&& f) {
    static_assert(std::is_invocable_v<F&>,
                  "weft::thread_pool::install(f): `f` must be callable with no arguments");
    WEFT_ASSERT(reg_ != nullptr);
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
    WEFT_ASSERT(reg_ != nullptr);
    if (detail::worker* w = detail::current_worker; w != nullptr && w->reg == reg_)
      detail::rt::wait_idle(*w);
    else
      detail::rt::wait_idle_blocking(reg_);
  }

  /// Threads of this pool (caller seat included). Precondition: `valid()`.
  std::size_t num_threads() const noexcept { return detail::rt::num_threads(reg_); }

  /// One thread's counters since the pool started. Counting costs nothing on the hot path:
  /// each is written only by its own thread, and only when it takes work from the pool's
  /// queues or sleeps (never by a join or a spawn that runs where it was made).
  struct worker_stats {
    std::uint64_t jobs_run;  ///< jobs it took from the pool's queues and ran (stolen, its own deque while waiting, injected, mail)
    std::uint64_t steals;    ///< of those, taken from another thread's deque
    std::uint64_t sleeps;    ///< times it blocked in the kernel for lack of work
    std::uint64_t wakeups;   ///< times another thread woke it from such a block
    int numa_node;           ///< the NUMA node it is placed on (`pool_options::numa`; for the caller seat, its queue's memory), -1: not placed
  };
  struct stats_snapshot {
    std::size_t threads;   ///< seats of the pool
    std::size_t sleeping;  ///< threads blocked in the kernel right now
    std::size_t inactive;  ///< threads not running a job (idle or sleeping)
    std::vector<worker_stats> workers;  ///< by thread index (0: the caller seat)
  };
  /// A racy snapshot of the pool's sleep counters and of each thread's counters, for tests
  /// and monitoring: each number is exact when read, the set is not one instant.
  /// Allocation: the vector. Precondition: `valid()`.
  stats_snapshot stats() const {
    const auto s = detail::rt::stats(reg_);
    stats_snapshot snapshot{s.threads, s.sleeping, s.inactive, {}};
    snapshot.workers.reserve(s.threads);
    for (std::size_t i = 0; i < s.threads; ++i) {
      const auto w = detail::rt::stats_of_worker(reg_, i);
      snapshot.workers.push_back({w.jobs_run, w.steals, w.sleeps, w.wakeups, w.numa_node});
    }
    return snapshot;
  }

 private:
  static std::size_t default_threads(const numa_placement& placement);
  void reset() noexcept {
    if (reg_ == nullptr) return;
    wait_idle();
    detail::rt::destroy_registry(std::exchange(reg_, nullptr));
  }
  detail::registry* reg_ = nullptr;
};

inline std::size_t thread_pool::default_threads(const numa_placement& placement) {
  if (placement.config().how == detail::rt::numa_config::policy::node) {
    if (const std::size_t cpus = detail::rt::numa_node_cpus(placement.config().node)) return cpus;
  }
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

namespace numa {
/// The NUMA nodes this process may run threads on (OS numbers, ascending), as hwloc sees
/// them; empty where placement is a no-op (weft built without hwloc, or libhwloc not
/// loadable). Reads the topology on each call.
inline std::vector<unsigned> nodes() { return detail::rt::numa_nodes(); }

/// What NUMA placement does here, in a sentence: hwloc's version and each usable node's CPUs,
/// or why placement is a no-op.
inline std::string describe() {
  std::string sentence;
  detail::rt::numa_description(sentence);
  return sentence;
}

/// One pool per NUMA node this process may run on, in `nodes()` order: pool k is built with
/// `base` and `numa = numa::node(nodes()[k])`, and, where `base.num_threads` is 0, one thread
/// per CPU of its node. Route each part of the work to its node's pool with `install` (data
/// first touched there stays there). Where placement is a no-op: one pool, built from `base`
/// as is (numa left unset). Exceptions: those of `thread_pool`'s constructor.
inline std::vector<thread_pool> per_node_pools(const pool_options& base = {}) {
  std::vector<thread_pool> pools;
  const std::vector<unsigned> ids = nodes();
  if (ids.empty()) {
    pools.emplace_back(base);
    return pools;
  }
  pools.reserve(ids.size());
  for (const unsigned id : ids) {
    pool_options o = base;
    o.numa = node(id);
    pools.emplace_back(std::move(o));
  }
  return pools;
}
}  // namespace numa

/// Threads of the pool the calling thread works for; outside every pool, the size the global
/// pool has or will have (the query does not create it). Thread safety: any thread.
inline std::size_t num_threads() {
  if (const detail::worker* w = detail::current_worker) return detail::rt::num_threads(w->reg);
  return detail::rt::global_num_threads();
}

/// Sets the options of the global pool (the pool of every weft call made outside a
/// `thread_pool`), as `ThreadPoolBuilder::build_global` or `omp_set_num_threads` do. Call it
/// before the first such call: the global pool is created on first use with these options
/// (`num_threads` 0: `WEFT_NUM_THREADS`, else the hardware's count). A later call that
/// asks for what the existing pool has is a no-op. Exceptions: `std::logic_error` (with
/// the pool's size in the message) when the global pool exists already and `options` ask
/// for anything else, handlers included; `std::invalid_argument` for a stack size the
/// system refuses. Thread safety: any thread.
inline void configure_global(pool_options options) {
  detail::rt::configure_global(detail::config_of(std::move(options)));
}

/// Waits for the global pool's detached tasks (`weft::spawn`), then stops and joins its
/// threads and frees it; the next weft call outside every pool creates a new global pool
/// (with the options of `configure_global`, if any). For programs that must hold no
/// threads at some point (before unloading a plugin, or to start over with other options).
/// Without it the global pool lives until the process ends, its idle threads asleep in the
/// kernel: returning from `main` with it alive is clean under the leak checker and
/// ThreadSanitizer, and a `fork()`ed child that calls weft builds a fresh global pool.
/// Preconditions: no other thread is inside a weft call on the global pool; not called
/// from one of its tasks (fatal).
inline void shutdown_global() { detail::rt::shutdown_global(); }

/// Index in [0, num_threads()) of the calling thread in its pool; empty outside a pool.
inline std::optional<std::size_t> thread_index() noexcept {
  if (detail::worker* w = detail::current_worker) return w->index;
  return std::nullopt;
}

}  // namespace weft
