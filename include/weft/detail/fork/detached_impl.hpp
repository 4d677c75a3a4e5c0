// SPDX-License-Identifier: MIT
// Detached tasks (weft::spawn): counted by their pool from spawn to end, never waited for by
// name. Protocol: docs/protocols/spawn.md#detached-tasks
#pragma once

#include <exception>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

#include "weft/detail/config.hpp"
#include "weft/detail/fork/spawned.hpp"
#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/runtime.hpp"
#include "weft/detail/sched/worker.hpp"

namespace weft::detail {

// A detached task: always counted (by the pool's detached count, D1), so publishing never
// counts it again and it needs no frame: it runs its callable, hands an escaping exception
// to the pool's handler, frees its block and counts itself out (D2) as its last action.
template <class F>
class detached_task : public spawned_job {
 public:
  template <class G>
  detached_task(G&& f, std::uint8_t block)
      : spawned_job(&execute_fn, nullptr, true, block), fn_(std::forward<G>(f)) {}

 private:
  static void execute_fn(job_header* h) noexcept {
    auto* self = static_cast<detached_task*>(h);
    worker& w = *current_worker;  // detached tasks run only on their pool's workers
    registry* const reg = w.reg;
    try {
      std::invoke(self->fn_);
    } catch (...) {
      rt::report_task_exception(reg, std::current_exception());
    }
    free_spawned(self, &w);
    rt::detached_end(reg);  // last touch
  }

  F fn_;
};

// Spawns `f` detached on pool `reg`: onto the calling worker's deque when it works for
// `reg`, else through the injector. D1 comes first, so the count covers the task from
// before any thread can run it. `before_push()` runs once the task is built, before any
// thread can run it.
template <class F, class BeforePush = no_before_push>
void spawn_detached(registry* reg, F&& f, BeforePush before_push = {}) {
  worker* const own = own_worker_of(reg);
  auto* job = make_spawned<detached_task<std::decay_t<F>>>(own, std::forward<F>(f));
  before_push();
  rt::detached_begin(reg);  // D1
  push_or_inject(reg, own, job);
}

}  // namespace weft::detail
