// SPDX-License-Identifier: MIT
// weft::thread_limit's bookkeeping: the live limits and the live pools.
// Protocol: src/sched/limit.hpp (tags A1..A4, L1..L5)
#include "limit.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#include "registry.hpp"
#include "weft/detail/sched/runtime.hpp"

namespace weft::detail {

std::atomic<std::uint32_t> allowed_threads{no_limit};

namespace {
std::mutex limits_mutex;
std::multiset<std::uint32_t> live_limits;  // guarded by limits_mutex
std::vector<registry*> live_pools;         // guarded by limits_mutex

std::uint32_t smallest_live() noexcept {
  return live_limits.empty() ? no_limit : *live_limits.begin();
}

// Under limits_mutex: publishes the smallest live limit (A1, L1) and, where it rose, wakes
// the workers it frees in every pool (L5): parked ones, and ones that slept before the limit
// came and that wake_any no longer picks first.
void publish_limit(std::uint32_t before) noexcept {
  const std::uint32_t now = smallest_live();
  allowed_threads.store(now, std::memory_order_seq_cst);  // A1
  if (now <= before) return;
  for (registry* reg : live_pools) {
    const std::size_t end = std::min<std::size_t>(now, reg->num_threads());
    for (std::size_t i = before; i < end; ++i)
      reg->sleep().wake_specific(static_cast<std::uint32_t>(i));  // L5: after A1
  }
}
}  // namespace

bool seat_only(const registry& reg) noexcept {
  return reg.num_threads() == 1 || allowed_threads.load(std::memory_order_seq_cst) <= 1;  // A4
}

void register_pool(registry* reg) {
  std::lock_guard<std::mutex> lock(limits_mutex);
  live_pools.push_back(reg);
}

void unregister_pool(registry* reg) noexcept {
  std::lock_guard<std::mutex> lock(limits_mutex);
  live_pools.erase(std::remove(live_pools.begin(), live_pools.end(), reg), live_pools.end());
}

void limits_before_fork() noexcept { limits_mutex.lock(); }
void limits_after_fork_in_parent() noexcept { limits_mutex.unlock(); }
// The child's pools have no threads: nothing is left to wake in them.
void limits_after_fork_in_child() noexcept {
  live_pools.clear();
  limits_mutex.unlock();
}

namespace rt {

void add_thread_limit(std::size_t max_threads) {
  if (max_threads == 0)
    throw std::invalid_argument("weft::thread_limit: the limit must be at least 1 thread");
  const auto k = static_cast<std::uint32_t>(std::min<std::size_t>(max_threads, no_limit - 1));
  std::lock_guard<std::mutex> lock(limits_mutex);
  const std::uint32_t before = smallest_live();
  live_limits.insert(k);
  publish_limit(before);
}

void remove_thread_limit(std::size_t max_threads) noexcept {
  const auto k = static_cast<std::uint32_t>(std::min<std::size_t>(max_threads, no_limit - 1));
  std::lock_guard<std::mutex> lock(limits_mutex);
  const std::uint32_t before = smallest_live();
  if (const auto it = live_limits.find(k); it != live_limits.end()) live_limits.erase(it);
  publish_limit(before);
}

std::size_t thread_limit_in_force() noexcept {
  return allowed_threads.load(std::memory_order_relaxed);
}

}  // namespace rt
}  // namespace weft::detail
