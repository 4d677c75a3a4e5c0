// SPDX-License-Identifier: MIT
// The scheduler's header -> compiled-core boundary: every function src/ exports for the pool,
// on one screen. The whole list of WEFT_API names (the futex calls, the shared thread-locals,
// the block engine compiled for the algorithms) is in detail/config.hpp.
// Design: docs/design.md#the-compiled-core
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "weft/detail/config.hpp"

namespace weft::detail {
struct job_header;
struct mailed_job;
class fifo_queue;
struct worker;
class registry;
class job_latch;
}  // namespace weft::detail

namespace weft::detail::rt {

// What a pool does with an exception that escapes a detached task (weft::spawn).
using task_exception_handler = std::function<void(std::exception_ptr)>;
// Called on a pool's background thread with its index, at its start or its exit.
using thread_handler = std::function<void(std::size_t)>;

// Where a pool's background threads run (weft::pinning).
struct pin_config {
  enum class policy : unsigned char { none, cpus, compact, spread };
  policy how = policy::none;
  std::vector<unsigned> cpus;  // for policy::cpus
};

// Which NUMA nodes a pool's threads run on and its queues' memory lives on (weft::numa).
struct numa_config {
  enum class policy : unsigned char { none, spread, node };
  policy how = policy::none;
  unsigned node = 0;  // for policy::node: the node's OS index
};

// How a pool is built: weft::pool_options, resolved (num_threads 0 means the default: the
// hardware's count, or WEFT_NUM_THREADS for the global pool).
struct pool_config {
  std::size_t num_threads = 0;
  task_exception_handler on_task_exception;
  std::string thread_name;  // background threads are named "<thread_name>-<index>"
  std::size_t stack_size = 0;  // 0: default_stack_bytes
  thread_handler on_thread_start;
  thread_handler on_thread_exit;
  pin_config pin;
  numa_config numa;
};
inline constexpr std::size_t default_stack_bytes = std::size_t{64} << 20;

// The NUMA nodes this process may run threads on (OS indexes, ascending), as hwloc sees them;
// empty where hwloc is absent or cannot be loaded. Loads the topology on each call.
WEFT_API std::vector<unsigned> numa_nodes();
// How many of this process's CPUs node `node` has (0 for a node it has none of or that does
// not exist; the process's whole CPU count for node 0 where hwloc is absent).
WEFT_API std::size_t numa_node_cpus(unsigned node);
// What NUMA placement can do here, in a sentence (weft::numa::describe), into `out`. (An
// out-parameter: a returned std::string would tag the exported name [abi:cxx11].)
WEFT_API void numa_description(std::string& out);

// The process-wide pool, created on first use: with the options of configure_global, else
// WEFT_NUM_THREADS or the hardware's count.
WEFT_API registry* global_registry();
// Sets the options the global pool is created with. Throws std::logic_error when the global
// pool exists already and `config` asks for something else than it has.
WEFT_API void configure_global(pool_config config);
// The size the global pool has, or will have once created (it does not create it).
WEFT_API std::size_t global_num_threads();
// Waits for the global pool's detached tasks, stops and joins its threads and frees it; the
// next call outside every pool creates a new one. Fatal from a task of the global pool.
WEFT_API void shutdown_global();

// A pool with `config.num_threads` seats: num_threads - 1 background threads plus the
// caller seat. Throws std::invalid_argument for a stack size the system refuses.
WEFT_API registry* create_registry(pool_config config);
// Stops and joins the threads. Fatal when called from a thread working for that pool.
WEFT_API void destroy_registry(registry* reg);
WEFT_API std::size_t num_threads(const registry* reg) noexcept;

// Runs `job` on `reg` for a thread that is not one of its workers and did not get the caller
// seat (enter_seat): puts it into the injector, and returns once `latch` (the job's) is set,
// working for its own pool meanwhile if the calling thread is a worker of another.
// Precondition: the job sets `latch` when it finishes.
WEFT_API void inject_and_wait(registry* reg, job_header* job, job_latch& latch);

// The caller seat (run_in): a thread that is not a worker of `reg` takes the seat if it is
// free (SeatAcquire), or enters it through its bias (src/sched/seat.cpp), and becomes worker 0;
// it runs its callable inline, then leaves with leave_seat. No job, no latch. enter_seat
// returns false, with nothing changed, when the seat is taken.
struct seat_ticket {
  worker* caller;        // the thread's current_worker before it took the seat
  std::uint32_t entry;   // worker 0's deque height at entry
  bool biased;           // entered through the thread's bias
};
WEFT_API bool enter_seat(registry* reg, seat_ticket& ticket) noexcept;
// run_in's inline path through the thread's bias (this_thread_bias): what a seat holder
// left on worker 0's deque, settled; and the bias given up after a BiasCheck saw it
// revoked (the seat freed if a revoker left it to the owner, then the drains).
WEFT_API void settle_seat(registry* reg) noexcept;
WEFT_API void drop_revoked_bias(registry* reg) noexcept;
// Settles what the holder left on worker 0's deque, restores `ticket.caller`, and releases
// the seat (SeatRelease and the drains), or leaves it reserved for the thread's bias.
WEFT_API void leave_seat(registry* reg, const seat_ticket& ticket) noexcept;

// For a thread outside every pool: whether its fork now would wait for a wake-up on the
// global pool, because the caller seat is taken (it would inject and block), because every
// idle thread sleeps (worker::fork_would_wake), or because the pool does not exist yet (it
// would start its threads; the question does not create it). Racy: a heuristic's input.
WEFT_API bool global_fork_would_wake() noexcept;

// Called by a worker whose deque has private jobs while some thread is idle: publishes
// them and wakes a sleeper if needed.
WEFT_API void share_work(worker& w) noexcept;
// As share_work, for a spawner: publishes only the oldest private jobs, one per idle thread.
// A scope's tasks are many and small next to a join's Bs; each published task is counted
// in its scope and popped back with a CAS if nobody took it, so handing out only what the
// idle threads can take keeps the rest on the fast path. A deep private region (64 jobs or
// more: the tasks of a spawning loop, which a recursion's few pending forks never reach)
// publishes half of itself instead: the owner runs its side from the top, the others take
// the bottom half without coming back for each job.
WEFT_API void share_spawned_work(worker& w) noexcept;
// Publishes every private job at once, public ones left or not: for a waiter whose own
// private jobs lie below the floor of its wait (task_group::wait inside a later join or
// frame), which it cannot pop and nobody else would publish.
WEFT_API void share_all_work(worker& w) noexcept;
// Work (pop down to `floor`, steal, take injected jobs), then sleep, until `latch` is set.
WEFT_API void wait_until(worker& w, job_latch& latch, std::uint32_t floor,
                         const job_header* hint) noexcept;
// Puts `job` in the mailbox of worker `index` of `reg` and wakes that worker if it sleeps
// (broadcast). The worker runs it the next time it looks for work, before anything else.
WEFT_API void post_mail(registry* reg, std::size_t index, mailed_job* job) noexcept;
// Wakes `w` if it sleeps on a latch that was just set.
WEFT_API void wake_worker(worker& w) noexcept;
// Submits a heap job (scope::spawn from outside any worker) through the injector.
WEFT_API void inject(registry* reg, job_header* job) noexcept;
// The queue of detached FIFO spawns made by threads that are not workers of `reg`
// (docs/protocols/spawn.md#fifo-spawns); a worker's own is worker::fifo.
WEFT_API fifo_queue& outside_fifo(registry* reg) noexcept;

// Detached tasks (weft::spawn): each one is counted from its spawn (detached_begin) to its
// end (detached_end); wait_idle returns once the count is 0. Protocol:
// docs/protocols/spawn.md#detached-tasks
WEFT_API void detached_begin(registry* reg) noexcept;
WEFT_API void detached_end(registry* reg) noexcept;
// For a worker `w` of `reg`: runs work of the pool until no detached task is pending.
WEFT_API void wait_idle(worker& w) noexcept;
// For a thread outside `reg`: blocks until no detached task is pending. (Entering the pool
// to help would run the wait as a job, possibly nested above a detached task it waits for.)
WEFT_API void wait_idle_blocking(registry* reg) noexcept;
// Hands an exception that escaped a detached task to the pool's handler.
WEFT_API void report_task_exception(registry* reg, std::exception_ptr error) noexcept;

// weft::yield_now (local_only false) and weft::yield_local (true) for the calling worker `w`:
// takes one job and runs it, and says whether there was one. Local: a task on top of w's
// own deque above its frame's floor, or its mail. Otherwise also a job stolen from another
// worker or injected from outside (not while isolated, nor above a thread limit).
WEFT_API bool yield(worker& w, bool local_only) noexcept;

// weft::thread_limit (protocol: src/sched/limit.hpp): a limit of `max_threads` (>= 1, else
// std::invalid_argument) is live from add to remove; the smallest live one is in force.
WEFT_API void add_thread_limit(std::size_t max_threads);
WEFT_API void remove_thread_limit(std::size_t max_threads) noexcept;
// The smallest live limit, or the largest uint32 value when none is live.
WEFT_API std::size_t thread_limit_in_force() noexcept;

// Introspection for tests and benchmarks.
struct pool_stats {
  std::size_t threads;
  std::size_t sleeping;
  std::size_t inactive;
};
WEFT_API pool_stats stats(const registry* reg) noexcept;
struct worker_stats {
  std::uint64_t jobs_run;
  std::uint64_t steals;
  std::uint64_t sleeps;
  std::uint64_t wakeups;
  int numa_node;  // -1: not placed
};
// Worker `index`'s counters (racy: each is a relaxed load, or read under its sleep mutex).
WEFT_API worker_stats stats_of_worker(const registry* reg, std::size_t index) noexcept;

}  // namespace weft::detail::rt
