// SPDX-License-Identifier: MIT
// Where a pool's background threads run (pool_options::pin): the CPU each thread index is
// pinned to, from a CPU list or from the machine's topology. Design: docs/guide.md#pools
#pragma once

#include <pthread.h>

#include <cstddef>
#include <vector>

#include "weft/detail/sched/runtime.hpp"

namespace weft::detail {

// The CPUs this process may run on (its affinity mask), ascending.
std::vector<int> allowed_cpus();

// The CPU of each background thread index (entry i for thread i; entry 0, the caller seat,
// is unused), or empty when `pin` pins nothing. Throws std::invalid_argument for a CPU
// list with a CPU this process may not run on.
std::vector<int> plan_pinning(const rt::pin_config& pin, std::size_t num_threads);

// Makes the threads `attr` creates start on `cpu` only (so they run nothing, their start
// handler included, elsewhere); false if the system refused.
bool pin_at_start(pthread_attr_t& attr, int cpu) noexcept;
// The same for a set of CPUs (a NUMA node's): the thread may run on any of them.
bool confine_at_start(pthread_attr_t& attr, const std::vector<int>& cpus) noexcept;

}  // namespace weft::detail
