// SPDX-License-Identifier: MIT
// Thread start and stop, the idle loop, stealing, entering a pool from outside, and the
// global pool. Design: docs/design.md   Protocols: docs/protocols/
#include "registry.hpp"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "affinity.hpp"
#include "limit.hpp"
#include "weft/detail/config.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sync/atomic.hpp"

namespace weft::detail {
namespace {

constexpr int steal_retries = 4;

std::uint32_t next_random(worker& w) noexcept {
  // xorshift64*: cheap and good enough to spread victims.
  std::uint64_t x = w.rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  w.rng_state = x;
  return static_cast<std::uint32_t>((x * 0x2545F4914F6CDD1Dull) >> 32);
}

// M1: pushes `job` on `w`'s mailbox. Release: the job's contents before the link.
void post_mail_to(worker& w, mailed_job* job) noexcept {
  std::atomic<mailed_job*>& box = w.mailbox.value;
  mailed_job* top = box.load(std::memory_order_relaxed);
  do {
    job->next_mail = top;
  } while (!box.compare_exchange_weak(top, job, std::memory_order_release,  // M1
                                      std::memory_order_relaxed));
}

// `isolated` says whether the job was pushed inside an isolated region of the victim
// (IsoRead, docs/protocols/isolation.md): it must run isolated here too.
job_header* steal_from(worker& thief, worker& victim, bool& isolated) noexcept {
  for (int attempt = 0; attempt < steal_retries; ++attempt) {
    const auto r = victim.deque.steal();
    if (r.status == split_deque::steal_status::success) {
      worker::counters::bump(thief.stats.steals);
      job_header* job = job_of(r.item);
      isolated = r.slot >= victim.isolated_from.load(std::memory_order_relaxed);  // IsoRead
      job->thief.get().store(thief.index, std::memory_order_relaxed);
      // More public work behind this job: let a sleeper come for it (wake-up cascade).
      if (r.more) thief.reg->sleep().new_internal_jobs(1, false);
      return job;
    }
    if (r.status == split_deque::steal_status::empty) return nullptr;
  }
  return nullptr;
}

// Where an idle worker looks for work, nearest first: its own deque (above `floor`), the
// worker that stole the job it waits for (leapfrogging: it is likely to have split that
// job), every other worker from a random start, then the injector.
}  // namespace

// Takes one job from w's mailbox (owner only): the whole stack at once (M2), the rest pushed
// back. Broadcast jobs come first: their broadcaster waits for every worker.
job_header* take_mail(worker& w) noexcept {
  std::atomic<mailed_job*>& box = w.mailbox.value;
  if (box.load(std::memory_order_relaxed) == nullptr) return nullptr;
  mailed_job* list = box.exchange(nullptr, std::memory_order_acquire);  // M2
  if (list == nullptr) return nullptr;
  for (mailed_job* rest = list->next_mail; rest != nullptr;) {
    mailed_job* next = rest->next_mail;
    post_mail_to(w, rest);
    rest = next;
  }
  return list;
}

namespace {

job_header* find_work(worker& w, std::uint32_t floor, const job_header* hint,
                      bool& isolated) noexcept {
  registry& reg = *w.reg;
  isolated = false;
  if (job_header* job = take_mail(w)) return job;
  if (job_header* job = pop_own_above(w, floor)) return job;
  const std::size_t n = reg.num_threads();
  if (hint != nullptr) {
    const std::uint32_t thief = hint->thief.get().load(std::memory_order_relaxed);
    if (thief < n && thief != w.index)
      if (job_header* job = steal_from(w, reg.worker_at(thief), isolated)) return job;
  }
  if (n > 1) {
    // Lemire's multiply-shift maps the random word onto [0, n) without a division.
    const std::size_t start =
        static_cast<std::size_t>((std::uint64_t{next_random(w)} * n) >> 32);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t v = (start + k) % n;
      if (v == w.index) continue;
      if (job_header* job = steal_from(w, reg.worker_at(v), isolated)) return job;
    }
  }
  return reg.inject_queue().take();
}

struct thread_start {
  registry* reg;
  std::uint32_t index;
};

void* start_background(void* arg) {
  auto* start = static_cast<thread_start*>(arg);
  registry* reg = start->reg;
  const std::uint32_t index = start->index;
  delete start;
  reg->background_main(index);
  return nullptr;
}

std::size_t default_thread_count() {
  std::size_t fallback = std::thread::hardware_concurrency();
  if (fallback == 0) fallback = 1;
  const char* env = std::getenv("WEFT_NUM_THREADS");
  if (env == nullptr) return fallback;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(env, &end, 10);
  if (errno != 0 || end == env || *end != '\0' || v <= 0 || v > 4096) {
    std::fprintf(stderr,
                 "weft: WEFT_NUM_THREADS=\"%s\" is not a positive integer; using %zu threads\n",
                 env, fallback);
    return fallback;
  }
  return static_cast<std::size_t>(v);
}

// How many forks a worker keeps private before further joins run `b` inline unrecorded
// (ADR 0006): every pending fork beyond the bound is younger, hence smaller, than the ones
// recorded, and one publish of the recorded ones must feed the other threads. Grows with
// the thread count so that a wider pool sees more of each path: 4 up to 2 threads, 2 more
// per doubling (10 at 16 threads), at most 16. A pool of one thread keeps none: no thread
// can ever take a recorded fork there (its one worker is the only deque owner and the only
// taker), so every join and async runs unrecorded from the first one.
std::uint32_t private_fork_bound(std::size_t threads) noexcept {
  if (threads <= 1) return 0;
  std::uint32_t bound = 4;
  for (std::size_t p = 2; p < threads && bound < 16; p *= 2) bound += 2;
  return bound;
}

// "<prefix>-<index>", the prefix cut so that the whole fits Linux's 15 characters. Set by
// the creating thread, so that the name is there when the pool's constructor returns.
void name_thread(pthread_t tid, const std::string& prefix, std::size_t index) {
  char digits[24];
  std::size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + index % 10);
    index /= 10;
  } while (index != 0);
  char name[16];
  const std::size_t prefix_len = std::min(prefix.size(), sizeof name - 2 - n);
  std::memcpy(name, prefix.data(), prefix_len);
  std::size_t at = prefix_len;
  name[at++] = '-';
  while (n != 0) name[at++] = digits[--n];
  name[at] = '\0';
  pthread_setname_np(tid, name);
}

// The stack size a pool's threads get: the default for 0, else `requested` rounded up to
// whole pages and to at least PTHREAD_STACK_MIN.
std::size_t stack_bytes_for(std::size_t requested) {
  if (requested == 0) return rt::default_stack_bytes;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t minimum = static_cast<std::size_t>(PTHREAD_STACK_MIN);
  if (requested > std::numeric_limits<std::size_t>::max() - page)
    throw std::invalid_argument("weft::pool_options::stack_size is too large");
  return std::max((requested + page - 1) / page * page, minimum);
}

// The NUMA placement `config` asks for, with the topology it was planned on (null when
// none is asked for). Throws std::invalid_argument as plan_numa does, and when `pin` is set
// too.
numa_plan plan_placement(const rt::pool_config& config, std::size_t num_threads,
                         std::unique_ptr<numa_topology>& topology) {
  if (config.numa.how == rt::numa_config::policy::none) return {};
  if (config.pin.how != rt::pin_config::policy::none)
    throw std::invalid_argument(
        "weft::pool_options: pin and numa both say where threads run; set one of them");
  topology = std::make_unique<numa_topology>();
  return plan_numa(config.numa, num_threads, *topology);
}

}  // namespace

registry::registry(rt::pool_config config)
    : config_(std::move(config)),
      num_threads_(config_.num_threads == 0 ? 1 : config_.num_threads),
      workers_(new worker[num_threads_]),
      sleep_(num_threads_) {
  config_.num_threads = num_threads_;
  config_.stack_size = stack_bytes_for(config_.stack_size);
  if (config_.thread_name.empty()) config_.thread_name = "weft";
  for (std::size_t i = 0; i < num_threads_; ++i) {
    worker& w = workers_[i];
    w.reg = this;
    w.sleep_counters = sleep_.counters_word();
    w.index = static_cast<std::uint32_t>(i);
    w.rng_state = 0x9E3779B97F4A7C15ull * (i + 1);
    w.deque.set_private_bound(private_fork_bound(num_threads_));
  }
  terminate_.reserve(num_threads_);
  for (std::size_t i = 0; i < num_threads_; ++i)
    terminate_.push_back(std::make_unique<job_latch>(&workers_[i]));

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (const int err = pthread_attr_setstacksize(&attr, config_.stack_size); err != 0) {
    pthread_attr_destroy(&attr);
    throw std::invalid_argument("weft::pool_options::stack_size: " +
                                std::to_string(config_.stack_size) +
                                " bytes is refused by the system: " + std::strerror(err));
  }
  std::vector<int> pinned_cpu;
  numa_plan numa;
  try {
    pinned_cpu = plan_pinning(config_.pin, num_threads_);
    numa = plan_placement(config_, num_threads_, numa_topology_);
  } catch (...) {
    pthread_attr_destroy(&attr);
    throw;
  }
  if (!numa.node.empty()) {
    numa_node_ = numa.node;
    // Each worker's queue slots on its node (the worker array's own lines stay where the
    // array is: a few lines that live in cache). Its spawn arena is allocated by the thread
    // itself, confined to the node, so first touch puts it there.
    for (std::size_t i = 0; i < num_threads_; ++i) {
      const split_deque& d = workers_[i].deque;
      if (numa_topology_->binds_memory() &&
          !numa_topology_->bind(d.slot_memory(), d.slot_memory_bytes(),
                                static_cast<unsigned>(numa.node[i])))
        std::fprintf(stderr, "weft: cannot bind thread %zu's queue to NUMA node %d\n", i,
                     numa.node[i]);
    }
  }
  threads_.reserve(num_threads_);
  // Before any thread starts: a thread that parks under a limit must be found by the
  // limiter that lifts it (L5, src/sched/limit.hpp).
  register_pool(this);
  for (std::size_t i = 1; i < num_threads_; ++i) {
    if (!pinned_cpu.empty() && !pin_at_start(attr, pinned_cpu[i]))
      std::fprintf(stderr, "weft: cannot pin thread %zu to CPU %d\n", i, pinned_cpu[i]);
    if (!numa.cpus.empty() && !confine_at_start(attr, numa.cpus[i]))
      std::fprintf(stderr, "weft: cannot place thread %zu on NUMA node %d\n", i, numa.node[i]);
    pthread_t tid;
    auto* start = new thread_start{this, static_cast<std::uint32_t>(i)};
    if (const int err = pthread_create(&tid, &attr, &start_background, start); err != 0) {
      delete start;
      std::fprintf(stderr, "weft: cannot start worker thread: %s\n", std::strerror(err));
      fatal("thread creation failed");
    }
    threads_.push_back(tid);
    name_thread(tid, config_.thread_name, i);
  }
  pthread_attr_destroy(&attr);
}

registry::~registry() {
  drop_bias();
  unregister_pool(this);
  for (std::size_t i = 1; i < num_threads_; ++i) terminate_[i]->set();
  for (pthread_t tid : threads_) pthread_join(tid, nullptr);
  if (!numa_node_.empty() && numa_topology_->binds_memory()) {
    for (std::size_t i = 0; i < num_threads_; ++i)
      numa_topology_->unbind(workers_[i].deque.slot_memory(), workers_[i].deque.slot_memory_bytes());
  }
}

// D2: the decrement that reaches 0 sets every registered waiter's latch under the mutex;
// a waiter registers and re-checks the count under the same mutex (add_idle_waiter), so
// either it sees 0 or its latch is in the list when the last decrement takes the mutex.
// D4: the count is read again under the mutex, and the waiters are set only if it is
// still 0. Between the decrement and the lock, a task may have been spawned and a waiter
// registered that the pool has not been idle for since; that task's own decrement (or a
// later one's) will find it.
void registry::detached_end() noexcept {
  if (detached_.value.fetch_sub(1, std::memory_order_acq_rel) != 1) return;  // D2
  std::lock_guard<std::mutex> lock(idle_mutex_);
  if (!detached_idle()) return;  // D4
  for (idle_waiter* w = std::exchange(idle_waiters_, nullptr); w != nullptr;) {
    idle_waiter* const next = w->next;  // read first: after set() the waiter may be gone
    w->latch.set();
    w = next;
  }
}

bool registry::add_idle_waiter(idle_waiter& waiter) noexcept {
  std::lock_guard<std::mutex> lock(idle_mutex_);
  if (detached_idle()) return false;
  waiter.next = idle_waiters_;
  idle_waiters_ = &waiter;
  return true;
}

void registry::report_task_exception(std::exception_ptr error) noexcept {
  if (config_.on_task_exception) {
    try {
      config_.on_task_exception(std::move(error));
      return;
    } catch (...) {
      std::fprintf(stderr, "weft: the pool's on_task_exception handler threw\n");
      std::terminate();
    }
  }
  try {
    std::rethrow_exception(std::move(error));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft: a detached task threw: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "weft: a detached task threw an exception\n");
  }
  std::terminate();
}

namespace {
// A pool's start or exit handler; what it throws has nowhere to go.
void call_thread_handler(const rt::thread_handler& handler, std::uint32_t index,
                         const char* which) noexcept {
  if (!handler) return;
  try {
    handler(index);
  } catch (...) {
    std::fprintf(stderr, "weft: the pool's %s handler threw on thread %u\n", which, index);
    std::terminate();
  }
}
}  // namespace

void registry::background_main(std::uint32_t index) noexcept {
  call_thread_handler(config_.on_thread_start, index, "on_thread_start");
  worker& w = workers_[index];
  set_current_worker(&w);
  rt::wait_until(w, *terminate_[index], 0, nullptr);
  set_current_worker(nullptr);
  call_thread_handler(config_.on_thread_exit, index, "on_thread_exit");
}

namespace rt {
namespace {
// The global pool once it exists. Stored with release once the registry is built, loaded
// with acquire: a reader that sees the pointer sees a constructed registry. Created (and
// configured) under global_mutex, so at most one is ever built.
std::atomic<registry*> created_global{nullptr};
std::mutex global_mutex;
pool_config global_options;  // guarded by global_mutex; what configure_global set
// The size the global pool will have, while it does not exist: every call outside a pool
// asks it (weft::num_threads(), the engine's probe), and resolving it reads the environment
// and the CPU count, so it is resolved once per configuration. 0: not resolved since the
// last configure_global or shutdown_global. Written under global_mutex, read relaxed: the
// value is the whole message, and a reader racing a reconfiguration may see either size,
// as it may without the cache.
std::atomic<std::size_t> unbuilt_global_threads{0};

// The size a global pool built from `options` has.
std::size_t resolved_global_threads(const pool_config& options) {
  return options.num_threads != 0 ? options.num_threads : default_thread_count();
}

WEFT_COLD registry* create_global() {
  std::lock_guard<std::mutex> lock(global_mutex);
  if (registry* reg = created_global.load(std::memory_order_relaxed)) return reg;
  pool_config options = global_options;
  options.num_threads = resolved_global_threads(options);
  auto* reg = new registry(std::move(options));
  created_global.store(reg, std::memory_order_release);
  return reg;
}

// fork(): the child has one thread, the forking one; the global pool's threads are gone.
// Prepare takes global_mutex so that no other thread holds it across the fork; the child
// forgets the global pool (its memory stays: its locks and counters may be mid-update) and
// its next call outside every pool builds a fresh one.
void before_fork() noexcept {
  global_mutex.lock();
  limits_before_fork();
}
void after_fork_in_parent() noexcept {
  limits_after_fork_in_parent();
  global_mutex.unlock();
}
void after_fork_in_child() noexcept {
  created_global.store(nullptr, std::memory_order_relaxed);
  set_current_worker(nullptr);
  limits_after_fork_in_child();
  global_mutex.unlock();
}
[[maybe_unused]] const int fork_handlers_registered =
    pthread_atfork(&before_fork, &after_fork_in_parent, &after_fork_in_child);
}  // namespace

registry* global_registry() {
  if (registry* reg = created_global.load(std::memory_order_acquire)) return reg;
  return create_global();
}

void shutdown_global() {
  registry* reg = nullptr;
  {
    std::lock_guard<std::mutex> lock(global_mutex);
    reg = created_global.load(std::memory_order_relaxed);
    if (reg == nullptr) return;
    if (const worker* w = current_worker; w != nullptr && w->reg == reg)
      fatal("weft::shutdown_global was called from a task of the global pool (this would deadlock)");
    created_global.store(nullptr, std::memory_order_relaxed);
    unbuilt_global_threads.store(0, std::memory_order_relaxed);  // WEFT_NUM_THREADS may differ now
  }
  wait_idle_blocking(reg);
  destroy_registry(reg);
}

void configure_global(pool_config config) {
  std::lock_guard<std::mutex> lock(global_mutex);
  const registry* const reg = created_global.load(std::memory_order_relaxed);
  if (reg == nullptr) {
    // Checked now, not at first use: the error belongs to this call.
    static_cast<void>(stack_bytes_for(config.stack_size));
    static_cast<void>(plan_pinning(config.pin, resolved_global_threads(config)));
    std::unique_ptr<numa_topology> topology;
    static_cast<void>(plan_placement(config, resolved_global_threads(config), topology));
    global_options = std::move(config);
    unbuilt_global_threads.store(0, std::memory_order_relaxed);
    return;
  }
  const pool_config& have = reg->config();
  const bool same = resolved_global_threads(config) == have.num_threads &&
                    (config.thread_name.empty() || config.thread_name == have.thread_name) &&
                    (config.stack_size == 0 || stack_bytes_for(config.stack_size) == have.stack_size) &&
                    !config.on_task_exception && !config.on_thread_start && !config.on_thread_exit &&
                    config.pin.how == pin_config::policy::none &&
                    config.numa.how == numa_config::policy::none;
  if (!same)
    throw std::logic_error(
        "weft::configure_global: the global pool exists already (" +
        std::to_string(have.num_threads) +
        " threads, created by an earlier weft call outside every pool); call configure_global "
        "before the first one, or use a weft::thread_pool");
}

std::size_t global_num_threads() {
  if (const registry* reg = created_global.load(std::memory_order_acquire))
    return reg->num_threads();
  if (const std::size_t n = unbuilt_global_threads.load(std::memory_order_relaxed)) return n;
  std::lock_guard<std::mutex> lock(global_mutex);
  if (const registry* reg = created_global.load(std::memory_order_relaxed))
    return reg->num_threads();
  const std::size_t n = resolved_global_threads(global_options);
  unbuilt_global_threads.store(n, std::memory_order_relaxed);
  return n;
}

registry* create_registry(pool_config config) { return new registry(std::move(config)); }

void wait_idle_blocking(registry* reg) noexcept {
  if (reg->detached_idle()) return;
  job_latch latch;  // no worker: a futex waiter
  registry::idle_waiter waiter{latch};
  if (reg->add_idle_waiter(waiter)) latch.wait_blocking();
}

void detached_begin(registry* reg) noexcept { reg->detached_begin(); }
void detached_end(registry* reg) noexcept { reg->detached_end(); }
void report_task_exception(registry* reg, std::exception_ptr error) noexcept {
  reg->report_task_exception(std::move(error));
}

void wait_idle(worker& w) noexcept {
  registry& reg = *w.reg;
  if (reg.detached_idle()) return;
  // This thread's own detached tasks may sit on its deque: run the spawned jobs on top,
  // down to the first join's B or the innermost frame's floor (what an enclosing join or
  // frame still needs), and offer whatever private work lies below to the other threads.
  while (w.deque.size_for_owner() > w.frame_floor &&
         spawned_of(w.deque.item_at(w.deque.size_for_owner() - 1)) != nullptr) {
    if (void* item = w.deque.pop()) {
      job_header* job = job_of(item);
      job->execute(job);
    }
  }
  if (w.deque.has_private()) share_all_work(w);
  if (reg.detached_idle()) return;
  job_latch latch(&w);
  registry::idle_waiter waiter{latch};
  const bool registered = reg.add_idle_waiter(waiter);
  if (registered) wait_until(w, latch, w.deque.size_for_owner(), nullptr);
}

void destroy_registry(registry* reg) {
  if (worker* w = current_worker; w != nullptr && w->reg == reg)
    fatal("a weft::thread_pool was destroyed from one of its own tasks (this would deadlock)");
  delete reg;
}

std::size_t num_threads(const registry* reg) noexcept { return reg->num_threads(); }

void inject_and_wait(registry* reg, job_header* job, job_latch& latch) {
  worker* const caller = current_worker;
  reg->inject_queue().put(job);
  reg->sleep().new_injected_jobs(1);  // InjectFence inside
  if (seat_only(*reg)) reg->drain_through_seat();  // InjectCheck (A4, L4)
  if (caller != nullptr)
    wait_until(*caller, latch, caller->deque.size_for_owner(), nullptr);
  else
    latch.wait_blocking();
}

bool global_fork_would_wake() noexcept {
  registry* const reg = created_global.load(std::memory_order_acquire);
  if (reg == nullptr) return true;  // the fork would start the pool's threads
  return reg->seat_taken() || reg->worker_at(0).fork_would_wake();
}

namespace {
void publish_jobs(worker& w, std::uint32_t max_jobs, bool even_if_public = false) noexcept {
  // Unstolen public work is still there for the hungry: publish only when it is gone.
  if (!even_if_public && !w.deque.public_is_empty()) return;
  // A join's B leaves the fields other threads read unwritten until this point. A spawned
  // job that was private and uncounted is counted in its group now (SpawnCount), before
  // the publishing CAS (Q3) lets a thief run it and count it down.
  // SpawnCount once per run of tasks of one group (a loop's tasks are one run): the items
  // publish() will make public are the oldest min(private, max_jobs), counted here first.
  const std::uint32_t first = w.deque.size_for_owner() - w.deque.private_count();
  const std::uint32_t last = first + std::min(w.deque.private_count(), max_jobs);
  std::atomic<std::size_t>* group = nullptr;
  std::size_t uncounted = 0;
  for (std::uint32_t i = first; i < last; ++i) {
    spawned_job* const s = spawned_of(w.deque.item_at(i));
    if (s == nullptr || s->counted) continue;
    if (s->pending != group) {
      if (uncounted != 0) group->fetch_add(uncounted, std::memory_order_relaxed);  // SpawnCount
      group = s->pending;
      uncounted = 0;
    }
    ++uncounted;
  }
  if (uncounted != 0) group->fetch_add(uncounted, std::memory_order_relaxed);  // SpawnCount
  const auto prepare = [&w](job_handle item) noexcept {
    if (spawned_job* s = spawned_of(item))
      s->share_prepare();  // counted above
    else
      static_cast<waited_job*>(job_of(item))->share_prepare(w);
  };
  if (w.deque.publish(prepare, max_jobs)) w.reg->sleep().new_internal_jobs(1, true);
}
}  // namespace

void share_work(worker& w) noexcept { publish_jobs(w, ~std::uint32_t{0}); }

void share_all_work(worker& w) noexcept { publish_jobs(w, ~std::uint32_t{0}, true); }

// A private region this deep holds a loop's spawns: a recursion keeps a few forks per level.
constexpr std::uint32_t flat_spawns = 64;
void share_spawned_work(worker& w) noexcept {
  const std::uint32_t idle = w.reg->sleep().inactive();
  // A deep private region (a loop's spawns) offers half of itself at once: a hungry thread
  // would otherwise come back for each job alone, and each offer costs the owner a publish
  // and a miss on the lines the thief wrote.
  const std::uint32_t priv = w.deque.private_count();
  const std::uint32_t half = priv >= flat_spawns ? priv / 2 : 0;
  publish_jobs(w, std::max({idle, half, 1u}));
}

namespace {
// A job stolen from an isolated region runs in one here (its waits run only its own work).
void run_found(worker& w, job_header* job, bool isolated) noexcept {
  worker::counters::bump(w.stats.jobs_run);
  if (!isolated) {
    job->execute(job);
    return;
  }
  isolation_frame frame(w);
  job->execute(job);
}

// One round of a wait that may run only what the waiting worker holds (wait_isolated,
// wait_limited): its mail, else its newest job above `floor`; true if it ran one. Otherwise
// it offers its private jobs, the enclosing frames' work below the floor, to the other
// threads rather than hold them while it waits, and returns false.
bool run_held_job(worker& w, std::uint32_t floor) noexcept {
  job_header* job = take_mail(w);
  if (job == nullptr) job = pop_own_above(w, floor);
  if (job != nullptr) {
    worker::counters::bump(w.stats.jobs_run);
    job->execute(job);
    return true;
  }
  if (w.deque.has_private()) share_all_work(w);
  return false;
}

// wait_until for a thread inside an isolated region (docs/protocols/isolation.md): it runs
// its mail and its own items above `floor` (all pushed inside the region), never another
// thread's, and otherwise blocks until the latch is set. It stays out of the sleep counters:
// it is neither idle for the pool's work nor a sleeper that new work may wake (I3).
void wait_isolated(worker& w, job_latch& latch, std::uint32_t floor) noexcept {
  registry& reg = *w.reg;
  std::uint32_t rounds = 0;
  while (!latch.probe()) {
    if (run_held_job(w, floor)) {
      rounds = 0;
      continue;
    }
    if (rounds < sleep_module::rounds_until_sleepy) {
      ++rounds;
      std::this_thread::yield();
      continue;
    }
    reg.sleep().sleep_isolated(w.index, latch.core(), &w.mailbox.value);
    rounds = 0;
  }
}

// wait_until for a worker above a thread limit (src/sched/limit.hpp, T-a): it runs its mail and
// its own deque above `floor` (what it holds), offers the rest of its private jobs to the
// others, and parks. Returns true once the latch is set, false once the limit no longer
// covers it (the caller goes back to the full search). Not counted idle meanwhile (L3).
bool wait_limited(worker& w, job_latch& latch, std::uint32_t floor) noexcept {
  registry& reg = *w.reg;
  std::uint32_t rounds = 0;
  while (!latch.probe()) {
    if (!is_limited(w)) return false;  // A2
    if (run_held_job(w, floor)) {
      rounds = 0;
      continue;
    }
    if (rounds < sleep_module::rounds_until_sleepy) {
      ++rounds;
      std::this_thread::yield();
      continue;
    }
    // LimitCheck (L4): a job injected while the limit was larger may count on this thread.
    if (seat_only(reg) && reg.inject_queue().has_jobs()) reg.drain_through_seat();
    reg.sleep().park(w.index, latch.core(), &w.mailbox.value, &allowed_threads);
    rounds = 0;
  }
  return true;
}

// The task on top of w's own deque, popped, if it is a task (a spawned job) above the
// innermost frame's floor: never a join's B (only its joiner runs it), never below the
// floor (the frame's drain needs it), as wait_idle does.
job_header* take_own_task(worker& w) noexcept {
  while (w.deque.size_for_owner() > w.frame_floor &&
         spawned_of(w.deque.item_at(w.deque.size_for_owner() - 1)) != nullptr)
    if (void* item = w.deque.pop()) return job_of(item);
  return nullptr;
}
}  // namespace

bool yield(worker& w, bool local_only) noexcept {
  bool isolated = false;
  job_header* job = take_mail(w);
  if (job == nullptr) job = take_own_task(w);
  if (job == nullptr && !local_only && !w.isolated() && !is_limited(w)) {
    registry& reg = *w.reg;
    const std::size_t n = reg.num_threads();
    const std::size_t start =
        n > 1 ? static_cast<std::size_t>((std::uint64_t{next_random(w)} * n) >> 32) : 0;
    for (std::size_t k = 0; k < n && job == nullptr; ++k) {
      const std::size_t v = (start + k) % n;
      if (v != w.index) job = steal_from(w, reg.worker_at(v), isolated);
    }
    if (job == nullptr) job = reg.inject_queue().take();
  }
  if (job == nullptr) return false;
  run_found(w, job, isolated);
  return true;
}

void wait_until(worker& w, job_latch& latch, std::uint32_t floor, const job_header* hint) noexcept {
  if (latch.probe()) return;
  if (w.isolated()) [[unlikely]] {
    wait_isolated(w, latch, floor);
    return;
  }
  registry& reg = *w.reg;
  // Counts this thread inactive (C1); the first one to do so closes the join gates (G2).
  const auto start_looking = [&] {
    auto state = reg.sleep().start_looking(w.index);
    if (state.first_hungry) reg.close_join_gates();
    return state;
  };
  auto idle = start_looking();
  while (!latch.probe()) {
    if (is_limited(w)) [[unlikely]] {  // A2
      reg.sleep().work_found();  // L3: leave the idle count, hand on a wake-up
      if (wait_limited(w, latch, floor)) return;
      idle = start_looking();
      continue;
    }
    bool isolated;
    if (job_header* job = find_work(w, floor, hint, isolated)) {
      reg.sleep().work_found();
      // While it keeps finding work the thread stays out of the idle count: the sleep
      // counters change when a thread goes idle or wakes, not per job (every spawner and
      // joiner reads them, and a thief that steals a run of small tasks would otherwise
      // write them twice per task). It counts itself idle again at the first empty look.
      do {
        run_found(w, job, isolated);
      } while (!latch.probe() && !is_limited(w) &&
               (job = find_work(w, floor, hint, isolated)) != nullptr);
      if (latch.probe()) return;  // out of the idle count already
      idle = start_looking();
      continue;
    }
    reg.sleep().no_work_found(idle, latch.core(), reg.inject_queue(), &w.mailbox.value);
  }
  reg.sleep().work_found();
}

void wake_worker(worker& w) noexcept { w.reg->sleep().wake_specific(w.index); }

void post_mail(registry* reg, std::size_t index, mailed_job* job) noexcept {
  worker& w = reg->worker_at(index);
  post_mail_to(w, job);
  // After the push: the sleeper re-checks its mailbox under the same mutex before it
  // blocks (MB), so either it sees the mail or this call finds it blocked and wakes it.
  reg->sleep().wake_specific(w.index);
  if (index == 0) {
    // Worker 0 is the caller seat: if nobody holds it, take it and run the mail now. The
    // fence after the push and the releaser's SeatRelease before its MailCheck form a
    // Dekker pair: the poster sees the seat free, or the releaser sees the mail.
    fence_seq_cst();  // MailFence
    // A seat reserved for a bias is revoked (B6 in src/sched/seat.cpp); a held one is drained
    // by its holder on release.
    if (!reg->seat_held()) reg->drain_mail_through_seat();
  }
}

void inject(registry* reg, job_header* job) noexcept {
  reg->inject_queue().put(job);
  reg->sleep().new_injected_jobs(1);
  if (seat_only(*reg)) reg->drain_through_seat();  // InjectCheck (A4, L4)
}

fifo_queue& outside_fifo(registry* reg) noexcept { return reg->outside_fifo(); }

pool_stats stats(const registry* reg) noexcept {
  auto& r = const_cast<registry&>(*reg);
  return {r.num_threads(), r.sleep().sleeping(), r.sleep().inactive()};
}

worker_stats stats_of_worker(const registry* reg, std::size_t index) noexcept {
  auto& r = const_cast<registry&>(*reg);
  const worker& w = r.worker_at(index);
  const auto sleeps = r.sleep().sleeps_of(static_cast<std::uint32_t>(index));
  return {w.stats.jobs_run.load(std::memory_order_relaxed),
          w.stats.steals.load(std::memory_order_relaxed), sleeps.first, sleeps.second,
          r.numa_node_of(index)};
}

}  // namespace rt
}  // namespace weft::detail
