// SPDX-License-Identifier: MIT
// Protocol: docs/protocols/sleep.md (tags C1, C2, F1, F2, M1 as in sleep.hpp)
#include "sleep.hpp"

#include <algorithm>
#include <thread>

#include "weft/detail/sync/atomic.hpp"

namespace weft::detail {
namespace {
constexpr std::uint64_t one_sleeping = 1;
constexpr std::uint64_t one_inactive = std::uint64_t{1} << 16;
constexpr std::uint64_t one_jec = std::uint64_t{1} << 32;
constexpr std::uint32_t sleeping_of(std::uint64_t c) { return c & 0xFFFFu; }
constexpr std::uint32_t inactive_of(std::uint64_t c) { return (c >> 16) & 0xFFFFu; }
constexpr std::uint32_t jec_of(std::uint64_t c) { return static_cast<std::uint32_t>(c >> 32); }
constexpr bool jec_is_sleepy(std::uint32_t jec) { return (jec & 1u) == 0; }
}  // namespace

sleep_module::sleep_module(std::size_t num_workers)
    : num_workers_(num_workers), states_(new cache_padded<worker_sleep_state>[num_workers]) {}

void sleep_module::yield() noexcept { std::this_thread::yield(); }

sleep_module::idle_state sleep_module::start_looking(std::uint32_t worker_index) noexcept {
  const std::uint64_t old = counters_.value.fetch_add(one_inactive, std::memory_order_seq_cst);  // C1
  return idle_state{worker_index, inactive_of(old) == 0};
}

void sleep_module::work_found() noexcept {
  const std::uint64_t old = counters_.value.fetch_sub(one_inactive, std::memory_order_seq_cst);  // C1
  // Whenever an idle thread finds work, wake up to two sleepers: work that one thread
  // found tends to split, and this is how wake-ups cascade as stealable work appears.
  const std::uint32_t to_wake = std::min<std::uint32_t>(sleeping_of(old), 2);
  if (to_wake > 0) wake_any(to_wake);
}

std::uint32_t sleep_module::announce_sleepy() noexcept {
  std::uint64_t cur = counters_.value.load(std::memory_order_seq_cst);
  for (;;) {
    const std::uint32_t jec = jec_of(cur);
    if (jec_is_sleepy(jec)) return jec;
    if (counters_.value.compare_exchange_weak(cur, cur + one_jec, std::memory_order_seq_cst))  // C1
      return jec + 1;
  }
}

void sleep_module::sleep(idle_state& idle, core_latch& latch, const injector& injected,
                         const std::atomic<mailed_job*>* mailbox) {
  if (!latch.get_sleepy()) return;  // the latch was set: stop idling
  auto& state = states_[idle.worker_index].value;
  std::unique_lock<std::mutex> lock(state.mutex);  // M1
  if (!latch.fall_asleep()) {
    idle.wake_fully();
    return;
  }
  for (;;) {
    const std::uint64_t cur = counters_.value.load(std::memory_order_seq_cst);
    if (jec_of(cur) != idle.jec) {  // a job was posted since we announced: search again
      latch.wake_up();
      idle.wake_partly();
      return;
    }
    std::uint64_t expected = cur;
    if (counters_.value.compare_exchange_weak(expected, cur + one_sleeping,
                                              std::memory_order_seq_cst))  // C1
      break;
  }
  fence_seq_cst();  // F1 SleepFence: pairs with F2 InjectFence
  if (injected.has_jobs() ||
      (mailbox != nullptr && mailbox->load(std::memory_order_acquire) != nullptr)) {  // MB
    counters_.value.fetch_sub(one_sleeping, std::memory_order_seq_cst);  // C1: undo, I2
  } else {
    state.is_blocked = true;
    ++state.sleeps;
    while (state.is_blocked) state.condvar.wait(lock);
  }
  latch.wake_up();
  idle.wake_fully();
}

void sleep_module::new_internal_jobs(std::uint32_t num_jobs, bool queue_was_empty) noexcept {
  new_jobs(num_jobs, queue_was_empty);
}

void sleep_module::new_injected_jobs(std::uint32_t num_jobs) noexcept {
  fence_seq_cst();  // F2 InjectFence: pairs with F1 SleepFence
  new_jobs(num_jobs, true);
}

void sleep_module::new_jobs(std::uint32_t num_jobs, bool queue_was_empty) noexcept {
  std::uint64_t cur = counters_.value.load(std::memory_order_seq_cst);  // C2
  while (jec_is_sleepy(jec_of(cur))) {
    if (counters_.value.compare_exchange_weak(cur, cur + one_jec, std::memory_order_seq_cst)) {  // C2
      cur += one_jec;
      break;
    }
  }
  const std::uint32_t sleeping = sleeping_of(cur);
  if (sleeping == 0) return;
  const std::uint32_t inactive = inactive_of(cur);
  const std::uint32_t awake_idle = inactive > sleeping ? inactive - sleeping : 0;
  if (!queue_was_empty) {
    wake_any(std::min(num_jobs, sleeping));
  } else if (awake_idle < num_jobs) {
    wake_any(std::min(num_jobs - awake_idle, sleeping));
  }
}

void sleep_module::park(std::uint32_t index, core_latch& latch,
                        const std::atomic<mailed_job*>* mailbox,
                        const std::atomic<std::uint32_t>* allowed) {
  if (!latch.get_sleepy()) return;  // the latch was set
  auto& state = states_[index].value;
  std::unique_lock<std::mutex> lock(state.mutex);  // M1
  if (!latch.fall_asleep()) return;
  // MB: mail posted before this check is seen here; mail posted after it finds the thread
  // blocked under this mutex and wakes it.
  if (mailbox->load(std::memory_order_acquire) == nullptr &&
      (allowed == nullptr || index >= allowed->load(std::memory_order_seq_cst))) {  // A3
    state.is_blocked = true;
    state.is_isolated = true;
    ++state.sleeps;
    while (state.is_blocked) state.condvar.wait(lock);
    state.is_isolated = false;
  }
  latch.wake_up();
}

bool sleep_module::unblock(std::uint32_t index, bool isolated_too) noexcept {
  auto& state = states_[index].value;
  std::lock_guard<std::mutex> lock(state.mutex);  // M1
  if (!state.is_blocked || (state.is_isolated && !isolated_too)) return false;
  state.is_blocked = false;
  ++state.wakeups;
  state.condvar.notify_one();
  if (!state.is_isolated) counters_.value.fetch_sub(one_sleeping, std::memory_order_seq_cst);  // C1, I3
  return true;
}

bool sleep_module::wake_specific(std::uint32_t index) noexcept { return unblock(index, true); }

void sleep_module::wake_any(std::uint32_t count) noexcept {
  // An isolated waiter takes no new work: only its latch and its mail wake it.
  for (std::uint32_t i = 0; i < num_workers_ && count > 0; ++i)
    if (unblock(i, false)) --count;
}

void sleep_module::wake_all() noexcept {
  for (std::uint32_t i = 0; i < num_workers_; ++i) wake_specific(i);
}

std::uint32_t sleep_module::sleeping() const noexcept {
  return sleeping_of(counters_.value.load(std::memory_order_seq_cst));
}
std::pair<std::uint64_t, std::uint64_t> sleep_module::sleeps_of(std::uint32_t index) noexcept {
  auto& state = states_[index].value;
  std::lock_guard<std::mutex> lock(state.mutex);
  return {state.sleeps, state.wakeups};
}

std::uint32_t sleep_module::inactive() const noexcept {
  return inactive_of(counters_.value.load(std::memory_order_seq_cst));
}

}  // namespace weft::detail
