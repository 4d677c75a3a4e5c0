// SPDX-License-Identifier: MIT
// pool_options::numa: which NUMA node each thread of a pool is placed on, from hwloc's view
// of the machine, and the binding of each worker's queue memory to its node.
// Design: docs/guide.md#numa-placement
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "weft/detail/sched/runtime.hpp"

namespace weft::detail {

// One NUMA node this process may run threads on.
struct numa_node_info {
  unsigned node;          // its OS index (numactl's and /sys/devices/system/node's number)
  std::vector<int> cpus;  // the CPUs of the node that this process's affinity mask allows
};

// The machine's NUMA nodes, read once through hwloc (libhwloc loaded with dlopen on first
// use). Where weft was built without hwloc, or libhwloc cannot be loaded, it knows one node
// (0) holding every CPU the process may run on, and binds nothing.
class numa_topology {
 public:
  numa_topology();
  ~numa_topology();
  numa_topology(const numa_topology&) = delete;
  numa_topology& operator=(const numa_topology&) = delete;

  // The nodes with at least one CPU this process may run on, by ascending OS index.
  const std::vector<numa_node_info>& usable_nodes() const noexcept { return nodes_; }
  // Whether hwloc described the machine (else one node is assumed and nothing is placed).
  bool from_hwloc() const noexcept { return hw_ != nullptr; }
  // Whether node `node` exists at all (usable or not).
  bool has_node(unsigned node) const noexcept;
  // A sentence on what placement can do here (weft::numa::describe).
  const std::string& description() const noexcept { return description_; }
  // Whether memory can be bound: hwloc is loaded and describes this machine (a synthetic
  // topology, HWLOC_SYNTHETIC, places threads but has no memory of its own).
  bool binds_memory() const noexcept;
  // Binds [memory, memory + bytes) (whole pages) to `node`, moving pages already touched;
  // the kernel may still fall back to another node when this one is full. False if refused.
  bool bind(void* memory, std::size_t bytes, unsigned node) const noexcept;
  // Gives the range back to the default policy (before it is freed).
  void unbind(void* memory, std::size_t bytes) const noexcept;

 private:
  struct loaded;
  std::unique_ptr<loaded> hw_;  // null without hwloc
  std::vector<numa_node_info> nodes_;
  std::vector<unsigned> all_nodes_;
  std::string description_;
};

// Where each thread of a pool goes: node[i] is thread i's node (-1: not placed), cpus[i] the
// CPUs background thread i is confined to (empty: not confined; entry 0, the caller seat,
// is always empty: it is the caller's thread). Worker 0's queue memory still goes to node[0].
struct numa_plan {
  std::vector<int> node;
  std::vector<std::vector<int>> cpus;
};

// Throws std::invalid_argument for policy::node with a node that does not exist or has none
// of this process's CPUs. Where placement cannot do anything (no hwloc, or spread over a
// single node) it returns an empty plan and prints why on stderr, once per process.
numa_plan plan_numa(const rt::numa_config& numa, std::size_t num_threads,
                    const numa_topology& topology);

}  // namespace weft::detail
