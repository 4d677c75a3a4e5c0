// SPDX-License-Identifier: MIT
// FIFO spawns (task_scope_fifo::spawn_fifo, weft::spawn_fifo): a queue of callables per
// spawning worker and one ordinary spawn per callable. Protocol: docs/protocols/spawn.md#fifo-spawns
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "weft/detail/config.hpp"
#include "weft/detail/fork/detached_impl.hpp"
#include "weft/detail/fork/scope_impl.hpp"
#include "weft/detail/fork/spawned.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"
#include "weft/detail/sync/cache_padded.hpp"
#include "weft/detail/sync/fifo_queue.hpp"

namespace weft::detail {

// ---------------------------------------------------------------------------------------
// FIFO spawns (Rayon's JobFifo). A FIFO spawn queues its callable (a fifo_task) in the
// fifo_queue of (its scope, or for a detached spawn its pool; the spawning worker, or
// "outside the pool"), then spawns an *indirection* job the ordinary way (spawn_into,
// spawn_detached): pushed on the spawner's deque (LIFO), or injected. Whoever runs an
// indirection pops the oldest callable of that queue and runs it. A thread that runs its
// own deque takes its indirections newest first, each of which runs the oldest callable:
// its FIFO spawns start in spawn order. A thief takes the oldest indirection, which also
// runs the oldest callable.
//
// Contract. Every queued callable runs exactly once, inside one indirection job of its
// queue, so that job's counting covers it (S1..S5 of the scope, D1..D4 of the pool):
// scope_fifo returns, and wait_idle sees no pending task, only after it finished.
// Callables of one queue are taken in the order their spawns pushed them.
//
// Roles. spawner: the thread calling spawn_fifo; a worker of the pool pushes its own
// queue, every other thread the shared outside queue. Runner: the thread that runs an
// indirection (the spawner popping its deque, a thief, an injector taker); it pops.
//
// Invariants.
//   Q1  a callable is pushed after its indirection is built and before any thread can run
//       that indirection (before_push), and nothing after the push can fail: one pushed
//       callable per spawned indirection, and the other way round.
//   Q2  an indirection pops exactly one callable, from the queue it was spawned for, and
//       runs it; the callable's block is freed even when it throws (the exception then
//       reaches the indirection's handler: the scope's record, or on_task_exception).
//   Q3  every pop finds a callable: the k-th pop of a queue (in its mutex's order) and the
//       k-1 pops before it are made by k distinct indirections, each spawned after its own
//       callable was pushed (Q1), so k pushes precede the k-th pop.
//   Q4  nothing cancels a scope_fifo's group, so every indirection runs: a skipped one
//       would strand a callable.
//   Q5  a queue outlives every indirection of it: a scope's queues are freed after its
//       wait (S4), a worker's and the outside queue with the pool, after its destructor
//       waited for the detached count (D2, D3).
//
// Ordering table.
// | tag      | where                    | operation                           | order | pairs with | why
// |----------|--------------------------|-------------------------------------|-------|------------|-----
// | FifoPush | spawn_fifo (before_push) | queue mutex: link the callable      | mutex | FifoPop    | the callable's construction before any pop of it
// | FifoPop  | indirection (run_oldest) | queue mutex: unlink the oldest      | mutex | FifoPush   | the runner sees the callable, whoever pushed it
// The runner frees the block with free_spawned: a block of another worker's arena goes to
// that owner's remote stack (R1, R2 of the spawn arena).
// ---------------------------------------------------------------------------------------

// A callable waiting in a fifo_queue. `run` runs it with `handle` (the task_scope_fifo of
// its spawn, unused for a detached one), then destroys it and frees its block.
struct fifo_task : fifo_node {
  using run_fn = void (*)(fifo_task*, void* handle);
  fifo_task(run_fn fn, std::uint8_t block) noexcept : run(fn), block_class(block) {}
  run_fn run;
  // The spawn arena's size class of the block holding the task, or spawned_job::heap_block.
  std::uint8_t block_class;
};

// Handle: the scope type whose reference the callable may take, or void (detached).
template <class F, class Handle>
class fifo_task_of final : public fifo_task {
 public:
  template <class G>
  fifo_task_of(G&& f, std::uint8_t block) : fifo_task(&run_typed, block), fn_(std::forward<G>(f)) {}

 private:
  static void run_typed(fifo_task* base, [[maybe_unused]] void* handle) {
    auto* self = static_cast<fifo_task_of*>(base);
    struct release {
      fifo_task_of* task;
      ~release() { free_spawned(task, current_worker); }  // Q2, also when fn_ throws
    } guard{self};
    if constexpr (std::is_void_v<Handle>)
      std::invoke(self->fn_);
    else if constexpr (std::is_invocable_v<F&, Handle&>)
      std::invoke(self->fn_, *static_cast<Handle*>(handle));
    else
      std::invoke(self->fn_);
  }

  F fn_;
};

// Q2: the indirection's work.
inline void run_oldest(fifo_queue& queue, void* handle) {
  auto* task = static_cast<fifo_task*>(queue.pop());  // FifoPop
  task->run(task, handle);
}

// The indirection of a scope's FIFO spawn: a scope_task of this 8-byte callable.
template <class Scope>
struct scope_fifo_indirection {
  fifo_queue* queue;
  void operator()(Scope& scope) const { run_oldest(*queue, &scope); }
};

// The indirection of a detached FIFO spawn: a detached_task of this 8-byte callable.
struct detached_fifo_indirection {
  fifo_queue* queue;
  void operator()() const { run_oldest(*queue, nullptr); }
};

// The queues of one weft::scope_fifo: one per worker of its pool and one for every other
// thread, each on its own line. One allocation per scope.
class fifo_queues {
 public:
  explicit fifo_queues(std::size_t workers)
      : queues_(new cache_padded<fifo_queue>[workers + 1]), outside_(workers) {}
  fifo_queues(const fifo_queues&) = delete;
  fifo_queues& operator=(const fifo_queues&) = delete;
  ~fifo_queues() { delete[] queues_; }

  // `own`: the calling thread's worker if it works for the scope's pool, else nullptr.
  fifo_queue& of(const worker* own) noexcept {
    return queues_[own != nullptr ? own->index : outside_].value;
  }

 private:
  cache_padded<fifo_queue>* queues_;
  std::size_t outside_;
};

// task_scope_fifo::spawn_fifo.
template <class Scope, class F>
void spawn_fifo_into(Scope& scope, fifo_queues& queues, F&& f) {
  using task = fifo_task_of<std::decay_t<F>, Scope>;
  worker* const w = current_worker;
  worker* const own = w != nullptr && w->reg == scope.state().reg() ? w : nullptr;
  fifo_queue& queue = queues.of(own);
  task* const callable = make_spawned<task>(own, std::forward<F>(f));
  try {
    spawn_into(scope, scope_fifo_indirection<Scope>{&queue},
               [&]() noexcept { queue.push(callable); });  // Q1, FifoPush
  } catch (...) {
    free_spawned(callable, own);
    throw;
  }
}

// weft::spawn_fifo and thread_pool::spawn_fifo.
template <class F>
void spawn_fifo_detached(registry* reg, F&& f) {
  using task = fifo_task_of<std::decay_t<F>, void>;
  worker* const own = own_worker_of(reg);
  fifo_queue& queue = own != nullptr ? own->fifo.value : rt::outside_fifo(reg);
  task* const callable = make_spawned<task>(own, std::forward<F>(f));
  try {
    spawn_detached(reg, detached_fifo_indirection{&queue},
                   [&]() noexcept { queue.push(callable); });  // Q1, FifoPush
  } catch (...) {
    free_spawned(callable, own);
    throw;
  }
}

}  // namespace weft::detail
