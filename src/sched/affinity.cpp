// SPDX-License-Identifier: MIT
// pool_options::pin: CPU lists, and the compact and spread orders read from
// /sys/devices/system/cpu/cpu<N>/topology. Design: docs/guide.md#pools
#include "affinity.hpp"

#include <sched.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>
#include <tuple>

namespace weft::detail {
namespace {

// A number from the CPU's topology folder, or `fallback` where the kernel does not say.
int topology_value(int cpu, const char* name, int fallback) {
  std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/" + name);
  int value = fallback;
  if (!(in >> value)) return fallback;
  return value;
}

struct cpu_place {
  int cpu;
  int package;
  int core;
  int rank;     // its position among the allowed hardware threads of its core
  int ordinal;  // its core's position among the cores of its package
};

std::vector<cpu_place> places_of(const std::vector<int>& cpus) {
  std::vector<cpu_place> places;
  for (const int c : cpus)
    places.push_back({c, topology_value(c, "physical_package_id", 0),
                      topology_value(c, "core_id", c), 0, 0});
  // Rank within the core: CPUs of one (package, core) in ascending CPU order.
  std::vector<cpu_place> by_core = places;
  std::sort(by_core.begin(), by_core.end(), [](const cpu_place& a, const cpu_place& b) {
    return std::tie(a.package, a.core, a.cpu) < std::tie(b.package, b.core, b.cpu);
  });
  for (std::size_t i = 1; i < by_core.size(); ++i) {
    cpu_place& p = by_core[i];
    const cpu_place& prev = by_core[i - 1];
    if (p.package != prev.package) continue;  // rank and ordinal 0
    if (p.core == prev.core) {
      p.rank = prev.rank + 1;
      p.ordinal = prev.ordinal;
    } else {
      p.ordinal = prev.ordinal + 1;
    }
  }
  return by_core;  // compact order: a core's hardware threads next to each other
}

}  // namespace

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::vector<int> plan_pinning(const rt::pin_config& pin, std::size_t num_threads) {
  using how = rt::pin_config::policy;
  if (pin.how == how::none) return {};
  const std::vector<int> allowed = allowed_cpus();
  std::vector<int> order;
  if (pin.how == how::cpus) {
    if (pin.cpus.empty()) throw std::invalid_argument("weft::pool_options::pin: an empty CPU list");
    for (const unsigned c : pin.cpus) {
      if (!std::binary_search(allowed.begin(), allowed.end(), static_cast<int>(c)))
        throw std::invalid_argument("weft::pool_options::pin: CPU " + std::to_string(c) +
                                    " is not one this process may run on");
      order.push_back(static_cast<int>(c));
    }
  } else {
    if (allowed.empty()) return {};
    std::vector<cpu_place> places = places_of(allowed);
    if (pin.how == how::spread) {
      // One hardware thread of every core first, alternating between the packages.
      std::stable_sort(places.begin(), places.end(), [](const cpu_place& a, const cpu_place& b) {
        return std::tie(a.rank, a.ordinal, a.package) < std::tie(b.rank, b.ordinal, b.package);
      });
    }
    for (const cpu_place& p : places) order.push_back(p.cpu);
  }
  std::vector<int> plan(num_threads, -1);
  for (std::size_t i = 1; i < num_threads; ++i) plan[i] = order[i % order.size()];
  return plan;
}

bool pin_at_start(pthread_attr_t& attr, int cpu) noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_attr_setaffinity_np(&attr, sizeof set, &set) == 0;
}

bool confine_at_start(pthread_attr_t& attr, const std::vector<int>& cpus) noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int c : cpus) CPU_SET(c, &set);
  return pthread_attr_setaffinity_np(&attr, sizeof set, &set) == 0;
}

}  // namespace weft::detail
