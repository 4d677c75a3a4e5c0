// SPDX-License-Identifier: MIT
// The state behind weft::scope: its count of shared tasks, the first exception, and the
// spawned task jobs (arena blocks). Protocol: docs/protocols/spawn.md
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <new>
#include <optional>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "weft/detail/config.hpp"
#include "weft/detail/fork/spawned.hpp"
#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/latch.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"
#include "weft/detail/sync/cache_padded.hpp"

namespace weft::detail {

// ---------------------------------------------------------------------------------------
// Spawn groups: how a scope knows that every task it spawned has finished, with no atomic
// operation for a task that never leaves the thread that spawned it.
//
// Contract. Every task spawned into a scope (by its body, by its tasks, from any thread)
// finishes (E1) before the scope's owner returns from its wait (E2), and every write a task
// made before E1 is visible after E2.
//
// Roles. owner: the thread running the scope body, then waiting; spawner: any thread that
// calls spawn; publisher: a worker making private deque items public (share_work); runner:
// the thread that executes a task (its spawner, a thief, or an injector taker).
//
// State. `pending_` (atomic): 1 for the body, plus every *counted* task not finished yet.
// Per task: `counted` (spawned_job). Per worker: `spawn_group`, the group of the innermost
// frame (scope body or task) it is running, and its deque.
// A frame of group G on thread T is the scope body (on its owner) or a task of G that T
// executes; it starts at deque height `floor`. A counted frame is the body or a counted
// task: it holds one unit of pending_ while it runs.
//
// Invariants.
//   S1  a spawn stays uncounted only if the spawner's spawn_group is the task's group, i.e.
//       the spawner runs a frame F of that group; the task is pushed above F's floor, on the
//       spawner's own deque, privately. Every other spawn counts at once (add_task).
//   S2  an uncounted task stays on its spawner's deque, private, until its spawner pops and
//       runs it, or a publish counts it (SpawnCount) before the deque's Q3 makes it
//       stealable. Hence only the spawner runs uncounted tasks.
//   S3  a counted frame, after its callable returns, runs its thread's deque down to its
//       floor (run_own_jobs_down_to) before it releases its unit. Every uncounted task above
//       the floor is run (or counted by a publish) by then; an uncounted frame releases
//       nothing and leaves its own uncounted tasks to the counted frame below it, which is
//       still on the same thread's stack (S1, S2).
//   S4  so pending_ reaches 0 only when every task of the group has finished: each task is
//       counted or lies above the floor of a counted frame that is still running.
// Leapfrogging: by S3 the owner runs its own scope's private tasks (LIFO) straight after
// the body, without touching the sleep counters; only then does it wait, stealing, for the
// counted tasks that other threads run.
//
// Ordering table.
// | tag        | where                     | operation                 | order   | pairs with | why
// |------------|---------------------------|---------------------------|---------|------------|-----
// | SpawnAdd   | spawn (counted at once)   | pending_ fetch_add        | relaxed | -          | precedes the push/injection that makes the task runnable
// | SpawnCount | publish_jobs, per run of one group's tasks | pending_ fetch_add (the run's length) | relaxed | - | sequenced before Q3: in pending_'s order before the thief's Done
// | Done       | counted frame's end       | pending_ fetch_sub        | acq_rel | Done, L    | the last one sees every task's writes, then sets the latch
// | L          | latch set / owner probe   | core_latch                | release/acquire | Done | owner sees the writes after its wait
// | Err        | record                    | has_error_ exchange       | acq_rel | Err, rethrow | first exception wins; the owner reads error_ after its wait
// | Cancel     | cancel / task start       | canceled_ store / load    | relaxed | -          | a hint: a task that misses it runs, as one started before the cancel
//
// Stop tokens. A scope or task_group built with a std::stop_token registers a
// std::stop_callback (stop_link) for as long as it exists: request_stop() on the token's
// source runs the callback, which is cancel() (Cancel above), on the requesting thread.
// std::stop_callback's destructor waits for a callback running on another thread, so the
// callback never touches a scope_state that is gone. A token stopped before the callback is
// registered runs it at registration: the scope starts canceled.
// ---------------------------------------------------------------------------------------
// Aligned to its own cache line: every task reads canceled_ and every steal writes
// pending_, and a user's variable sharing the line (a result counter declared next to a
// task_group on the stack, bumped by the tasks) would make each of those a miss on both
// threads. nqueens(12) written with task_group (its solution counter declared next to the
// group), two threads: 1.54x sequential unaligned, 1.14x aligned (docs/benchmarks.md).
// pending_ has a line of its own within it: the spawner's own tasks read canceled_, which a
// thief's Done would otherwise take away from it once per stolen task.
class alignas(cache_line_bytes) scope_state {
 public:
  // `cancel_on_error`: the first exception also cancels the tasks not started yet
  // (task_group); a scope runs every task.
  scope_state(registry* reg, worker* owner, bool cancel_on_error = false) noexcept
      : cancel_on_error_(cancel_on_error), reg_(reg), latch_(owner) {}

  registry* reg() const noexcept { return reg_; }
  job_latch& latch() noexcept { return latch_; }
  // The state whose group counter is `group` (pending_, the first member).
  static const scope_state& from_group(const std::atomic<std::size_t>* group) noexcept {
    static_assert(std::is_standard_layout_v<std::atomic<std::size_t>>);
    return *reinterpret_cast<const scope_state*>(group);
  }
  std::atomic<std::size_t>* group() noexcept { return &pending_; }

  void add_task() noexcept { pending_.fetch_add(1, std::memory_order_relaxed); }  // SpawnAdd
  void task_done() noexcept {
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) latch_.set();  // Done
  }
  void record(std::exception_ptr e) noexcept {
    if (cancel_on_error_) cancel();
    if (!has_error_.exchange(true, std::memory_order_acq_rel)) error_ = std::move(e);  // Err
  }
  // Tasks that start after a cancel() is visible to them skip their callable (Cancel).
  void cancel() noexcept { canceled_.store(true, std::memory_order_relaxed); }
  bool canceled() const noexcept { return canceled_.load(std::memory_order_relaxed); }
  // Only while no task of the group exists and pending_ is 0 (task_group after a wait):
  // the group starts over, its standing unit taken again.
  void reset_after_wait(worker* waiter) noexcept {
    pending_.store(1, std::memory_order_relaxed);
    canceled_.store(false, std::memory_order_relaxed);
    has_error_.store(false, std::memory_order_relaxed);
    error_ = nullptr;
    latch_.reset(waiter);
  }
  void set_waiter(worker* waiter) noexcept { latch_.reset(waiter); }
  // task_group: no task is pending (only the group's standing unit).
  bool only_standing_unit() const noexcept { return pending_.load(std::memory_order_acquire) == 1; }

  // A spawn counted at once (S1): from a worker `w` of this pool outside the group's
  // frames, onto its deque; from anywhere else (w == nullptr), through the injector.
  // Returns whether `job` went onto w's deque (false: injected, or run at once on a full
  // deque).
  [[gnu::noinline]] bool submit_counted(worker* w, spawned_job* job) noexcept {
    add_task();  // SpawnAdd
    return push_or_inject(reg_, w, job);
  }
  std::exception_ptr error() const noexcept { return error_; }
  bool failed() const noexcept { return has_error_.load(std::memory_order_acquire); }
  void rethrow_if_failed() const {
    if (has_error_.load(std::memory_order_acquire)) std::rethrow_exception(error_);
  }

 private:
  // First member: task_scope::from_group finds the scope from its address. Alone on its
  // line: every task another thread runs writes it (Done), every task reads canceled_.
  std::atomic<std::size_t> pending_{1};
  alignas(cache_line_bytes) std::atomic<bool> has_error_{false};
  std::atomic<bool> canceled_{false};
  bool cancel_on_error_;
  std::exception_ptr error_;
  registry* reg_;
  job_latch latch_;
};

// Cancels a scope (or task_group) when its stop token is stopped.
struct cancel_on_stop {
  scope_state* state;
  void operator()() const noexcept { state->cancel(); }
};
using stop_link = std::optional<std::stop_callback<cancel_on_stop>>;

// Whether the innermost scope or task_group whose body or task the calling thread runs was
// canceled (cancel(), an exception in a task_group, or its stop token). False outside every
// scope's frames.
inline bool innermost_group_canceled() noexcept {
  const worker* const w = current_worker;
  if (w == nullptr || w->spawn_group == nullptr) return false;
  return scope_state::from_group(w->spawn_group).canceled();
}

// A frame of spawn group `group` on worker `w` (S1): the scope body, or a task.
class spawn_frame {
 public:
  spawn_frame(worker& w, std::atomic<std::size_t>* group) noexcept
      : w_(w), saved_(w.spawn_group), saved_floor_(w.frame_floor), floor_(w.deque.size_for_owner()) {
    w.spawn_group = group;
    w.frame_floor = floor_;
  }
  spawn_frame(const spawn_frame&) = delete;
  spawn_frame& operator=(const spawn_frame&) = delete;
  // S3, for a counted frame, before it releases its unit.
  void run_own_jobs() noexcept { run_own_jobs_down_to(w_, floor_); }
  std::uint32_t floor() const noexcept { return floor_; }
  ~spawn_frame() {
    w_.spawn_group = saved_;
    w_.frame_floor = saved_floor_;
  }

 private:
  worker& w_;
  const std::atomic<std::size_t>* saved_;
  std::uint32_t saved_floor_;
  std::uint32_t floor_;
};

// A task spawned into a group. Scope is task_scope or task_group: it owns the scope_state,
// which scope_state::from_group finds from the group counter (saving the task a pointer),
// and a task_scope hands itself to an `f` that takes it (task_scope::from_group). The job
// lives in a spawn arena block of the spawning worker, or on the heap when spawned from
// outside the pool or too large for a block.
template <class F, class Scope>
class scope_task : public spawned_job {
 public:
  // From a worker of the scope's pool: an arena block when it fits (make_spawned).
  template <class G>
  static scope_task* make(worker* w, G&& f, Scope& scope, bool is_counted) {
    return make_spawned<scope_task>(w, std::forward<G>(f), scope, is_counted);
  }

  template <class G>
  scope_task(G&& f, Scope& scope, bool is_counted, std::uint8_t block)
      : spawned_job(&execute_fn, scope.state().group(), is_counted, block),
        fn_(std::forward<G>(f)) {}

 private:
  // S5: an uncounted task runs on its spawner, inside the frame of its group that pushed
  // it or the counted one below (S2, S3): the worker's spawn_group is already its group and
  // its block is in this worker's arena. So it only runs its callable and frees its block.
  // Then it runs the children its callable left above it, newest first, as the enclosing
  // frame's drain would next: those of its own type and group in this loop (no indirect
  // call, no new frame per task), any other through its execute.
  static void execute_fn(job_header* h) noexcept {
    auto* self = static_cast<scope_task*>(h);
    if (self->counted) [[unlikely]] {
      execute_counted(self);
      return;
    }
    worker& w = *current_worker;
    WEFT_ASSERT(w.spawn_group == self->pending);  // S5
    std::atomic<std::size_t>* const group = self->pending;
    const std::uint32_t base = w.deque.size_for_owner();
    for (;;) {
      run_fn(self, group);
      free_own(self, w);
      for (;;) {
        if (w.deque.size_for_owner() <= base) return;
        void* const item = w.deque.pop();
        if (item == nullptr) continue;  // stolen
        job_header* const job = job_of(item);
        if (job->execute == &execute_fn) {
          self = static_cast<scope_task*>(job);
          if (!self->counted && self->pending == group) break;
        }
        job->execute(job);
      }
    }
  }

  // S5, and make() gives a task spawned on a worker an arena block whenever one fits.
  static void free_own(scope_task* self, worker& w) noexcept {
    if constexpr (arena_class_of<scope_task> != spawn_arena::no_class) {
      self->~scope_task();
      w.arena.deallocate_own(self, arena_class_of<scope_task>);
    } else {
      delete self;
    }
  }

  [[gnu::noinline]] static void execute_counted(scope_task* self) noexcept {
    std::atomic<std::size_t>* const group = self->pending;
    worker& w = *current_worker;  // tasks run only on their pool's workers
    spawn_frame frame(w, group);
    run_fn(self, group);
    free_spawned(self, &w);
    frame.run_own_jobs();  // S3
    state_of(group).task_done();  // last touch: the scope may return right after
  }

  static scope_state& state_of(std::atomic<std::size_t>* group) noexcept {
    return const_cast<scope_state&>(scope_state::from_group(group));
  }

  static void run_fn(scope_task* self, std::atomic<std::size_t>* group) noexcept {
    scope_state& state = state_of(group);
    if (state.canceled()) [[unlikely]]
      return;
    try {
      if constexpr (std::is_invocable_v<F&, Scope&>)
        std::invoke(self->fn_, Scope::from_group(group));
      else
        std::invoke(self->fn_);
    } catch (...) {
      state.record(std::current_exception());
    }
  }

  F fn_;
};

}  // namespace weft::detail

namespace weft::detail {

// task_scope::spawn, task_group::run and the indirection of a FIFO spawn. Group:
// task_scope, task_group or task_scope_fifo (scope_state& state(), its first member).
// `before_push()` runs once the task is built, before any thread can run it. Returns the
// worker it pushed onto when the task went onto the deque of a worker outside the group's
// frames (counted), at the height before the call; else nullptr (a frame of the group
// pushed it, it was injected, or it has run already on a full deque).
template <class Group, class F, class BeforePush = no_before_push>
WEFT_INLINE worker* spawn_into(Group& group, F&& f, BeforePush before_push = {}) {
  using task = scope_task<std::decay_t<F>, Group>;
  scope_state& state = group.state();
  worker* const w = current_worker;
  // S1: from a frame of this group (hence a worker of its pool) the task stays uncounted
  // until it is published. Both branches build the task inline: a temporary `f` whose
  // address reached a call would be built in memory and copied (a stalled store forward).
  if (w != nullptr && w->spawn_group == state.group()) [[likely]] {
    task* const job = task::make(w, std::forward<F>(f), group, false);
    before_push();
    push_spawned(*w, job);
    return nullptr;
  }
  worker* const own = w != nullptr && w->reg == state.reg() ? w : nullptr;
  task* const job = task::make(own, std::forward<F>(f), group, true);
  before_push();
  return state.submit_counted(own, job) ? own : nullptr;
}

}  // namespace weft::detail
