// SPDX-License-Identifier: MIT
// pool_options::numa through hwloc, which libweft loads with dlopen on first use: a program
// linked with weft runs where hwloc is not installed (placement is then a no-op, said once on
// stderr), and weft's packages carry no dependency on it. Design: docs/guide.md#numa-placement
#include "numa.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>

#ifdef WEFT_HAVE_HWLOC
#include <dlfcn.h>
#include <hwloc.h>
#endif

#include "affinity.hpp"

namespace weft::detail {
namespace {

// "0-3,8" for a sorted CPU list.
std::string cpu_ranges(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}


#ifdef WEFT_HAVE_HWLOC
std::string nodes_sentence(const std::vector<numa_node_info>& nodes) {
  std::string out;
  for (const numa_node_info& n : nodes) {
    out += out.empty() ? "" : ", ";
    out += "node " + std::to_string(n.node) + " (CPUs " + cpu_ranges(n.cpus) + ")";
  }
  return out;
}

// The hwloc functions weft calls, looked up in libhwloc's hwloc 2.x ABI (soname 15).
struct hwloc_api {
  decltype(&hwloc_get_api_version) get_api_version = nullptr;
  decltype(&hwloc_topology_init) topology_init = nullptr;
  decltype(&hwloc_topology_load) topology_load = nullptr;
  decltype(&hwloc_topology_destroy) topology_destroy = nullptr;
  decltype(&hwloc_topology_is_thissystem) is_thissystem = nullptr;
  decltype(&hwloc_get_nbobjs_by_depth) nbobjs_by_depth = nullptr;
  decltype(&hwloc_get_obj_by_depth) obj_by_depth = nullptr;
  decltype(&hwloc_bitmap_first) bitmap_first = nullptr;
  decltype(&hwloc_bitmap_next) bitmap_next = nullptr;
  decltype(&hwloc_set_area_membind) set_area_membind = nullptr;
  std::string error;  // why hwloc is not usable; empty when it is
};

template <class F>
bool look_up(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

hwloc_api load_hwloc() {
  hwloc_api api;
  // Never closed: the process keeps libhwloc once a pool asked for it.
  void* lib = dlopen("libhwloc.so.15", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    api.error = std::string("libhwloc cannot be loaded (") + (why ? why : "dlopen failed") + ")";
    return api;
  }
  const bool found = look_up(lib, api.get_api_version, "hwloc_get_api_version") &&
                     look_up(lib, api.topology_init, "hwloc_topology_init") &&
                     look_up(lib, api.topology_load, "hwloc_topology_load") &&
                     look_up(lib, api.topology_destroy, "hwloc_topology_destroy") &&
                     look_up(lib, api.is_thissystem, "hwloc_topology_is_thissystem") &&
                     look_up(lib, api.nbobjs_by_depth, "hwloc_get_nbobjs_by_depth") &&
                     look_up(lib, api.obj_by_depth, "hwloc_get_obj_by_depth") &&
                     look_up(lib, api.bitmap_first, "hwloc_bitmap_first") &&
                     look_up(lib, api.bitmap_next, "hwloc_bitmap_next") &&
                     look_up(lib, api.set_area_membind, "hwloc_set_area_membind");
  if (!found) {
    api.error = "libhwloc.so.15 lacks a function weft needs";
    return api;
  }
  if ((api.get_api_version() >> 16) != (HWLOC_API_VERSION >> 16)) {
    api.error = "libhwloc.so.15 is not hwloc 2.x";
    return api;
  }
  return api;
}

const hwloc_api& hwloc() {
  static const hwloc_api api = load_hwloc();
  return api;
}

std::string hwloc_version(unsigned v) {
  return std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xFF) + "." +
         std::to_string(v & 0xFF);
}
#endif

}  // namespace

#ifdef WEFT_HAVE_HWLOC
struct numa_topology::loaded {
  hwloc_topology_t topology = nullptr;
  bool this_system = false;
  std::vector<std::pair<unsigned, hwloc_const_nodeset_t>> nodesets;  // by OS index
};
#else
struct numa_topology::loaded {};
#endif

numa_topology::numa_topology() {
  const std::vector<int> allowed = allowed_cpus();
  const std::string fallback_nodes = "CPUs " + cpu_ranges(allowed);
#ifdef WEFT_HAVE_HWLOC
  const hwloc_api& api = hwloc();
  std::string why_not = api.error;
  if (why_not.empty()) {
    auto hw = std::make_unique<loaded>();
    if (api.topology_init(&hw->topology) != 0) {
      why_not = "hwloc cannot build a topology";
    } else if (api.topology_load(hw->topology) != 0) {
      api.topology_destroy(hw->topology);
      why_not = "hwloc cannot read this machine's topology";
    } else {
      hw->this_system = api.is_thissystem(hw->topology) != 0;
      const int count = api.nbobjs_by_depth(hw->topology, HWLOC_TYPE_DEPTH_NUMANODE);
      for (int i = 0; i < count; ++i) {
        const hwloc_obj_t obj =
            api.obj_by_depth(hw->topology, HWLOC_TYPE_DEPTH_NUMANODE, static_cast<unsigned>(i));
        if (obj == nullptr) continue;
        all_nodes_.push_back(obj->os_index);
        hw->nodesets.emplace_back(obj->os_index, obj->nodeset);
        numa_node_info node{obj->os_index, {}};
        if (obj->cpuset != nullptr) {
          for (int c = api.bitmap_first(obj->cpuset); c >= 0; c = api.bitmap_next(obj->cpuset, c))
            if (std::binary_search(allowed.begin(), allowed.end(), c)) node.cpus.push_back(c);
        }
        if (!node.cpus.empty()) nodes_.push_back(std::move(node));
      }
      std::sort(nodes_.begin(), nodes_.end(),
                [](const numa_node_info& a, const numa_node_info& b) { return a.node < b.node; });
      const std::string version = "hwloc (API " + hwloc_version(api.get_api_version()) + ")";
      const std::string source = hw->this_system ? "" : " (a synthetic topology: threads only)";
      if (nodes_.empty()) {
        why_not = version + " finds no NUMA node with a CPU this process may run on";
      } else {
        description_ = version + source + ": " + std::to_string(nodes_.size()) +
                       (nodes_.size() == 1 ? " NUMA node" : " NUMA nodes") +
                       " this process may run on: " + nodes_sentence(nodes_);
        hw_ = std::move(hw);
        return;
      }
      api.topology_destroy(hw->topology);
    }
  }
  all_nodes_ = {0};
  nodes_ = {{0, allowed}};
  description_ = why_not + ": one node assumed (" + fallback_nodes + "), nothing is placed";
#else
  all_nodes_ = {0};
  nodes_ = {{0, allowed}};
  description_ = "weft was built without hwloc: one node assumed (" + fallback_nodes +
                 "), nothing is placed";
#endif
}

numa_topology::~numa_topology() {
#ifdef WEFT_HAVE_HWLOC
  if (hw_) hwloc().topology_destroy(hw_->topology);
#endif
}

bool numa_topology::has_node(unsigned node) const noexcept {
  return std::find(all_nodes_.begin(), all_nodes_.end(), node) != all_nodes_.end();
}

bool numa_topology::binds_memory() const noexcept {
#ifdef WEFT_HAVE_HWLOC
  return hw_ && hw_->this_system;
#else
  return false;
#endif
}

bool numa_topology::bind(void* memory, std::size_t bytes, unsigned node) const noexcept {
#ifdef WEFT_HAVE_HWLOC
  if (!binds_memory()) return false;
  for (const auto& [os_index, nodeset] : hw_->nodesets) {
    if (os_index != node) continue;
    // Not HWLOC_MEMBIND_STRICT: the kernel may fall back to another node rather than fail
    // an allocation (MPOL_PREFERRED for one node).
    return hwloc().set_area_membind(hw_->topology, memory, bytes, nodeset, HWLOC_MEMBIND_BIND,
                                    HWLOC_MEMBIND_MIGRATE | HWLOC_MEMBIND_BYNODESET) == 0;
  }
  return false;
#else
  static_cast<void>(memory);
  static_cast<void>(bytes);
  static_cast<void>(node);
  return false;
#endif
}

void numa_topology::unbind(void* memory, std::size_t bytes) const noexcept {
#ifdef WEFT_HAVE_HWLOC
  if (!binds_memory() || hw_->nodesets.empty()) return;
  static_cast<void>(hwloc().set_area_membind(hw_->topology, memory, bytes,
                                             hw_->nodesets.front().second,
                                             HWLOC_MEMBIND_DEFAULT, HWLOC_MEMBIND_BYNODESET));
#else
  static_cast<void>(memory);
  static_cast<void>(bytes);
#endif
}

namespace {
// Says once per process why a pool's NUMA placement does nothing.
void say_no_op(const char* what, const numa_topology& topology) {
  static std::atomic<bool> said{false};
  if (!said.exchange(true, std::memory_order_relaxed))
    std::fprintf(stderr, "weft: %s is a no-op: %s\n", what, topology.description().c_str());
}
}  // namespace

numa_plan plan_numa(const rt::numa_config& numa, std::size_t num_threads,
                    const numa_topology& topology) {
  using how = rt::numa_config::policy;
  numa_plan plan;
  if (numa.how == how::none) return plan;
  const std::vector<numa_node_info>& nodes = topology.usable_nodes();
  std::vector<const numa_node_info*> order;
  if (numa.how == how::node && !topology.from_hwloc()) {
    if (numa.node != 0) {
      throw std::invalid_argument("weft::numa::node(" + std::to_string(numa.node) +
                                  "): no such NUMA node (" + topology.description() + ")");
    }
    say_no_op("numa::node(0)", topology);
    return plan;
  }
  if (numa.how == how::node) {
    for (const numa_node_info& n : nodes)
      if (n.node == numa.node) order.push_back(&n);
    if (order.empty()) {
      throw std::invalid_argument(
          "weft::numa::node(" + std::to_string(numa.node) + "): " +
          (topology.has_node(numa.node) ? "the node has none of the CPUs this process may run on"
                                        : "no such NUMA node") +
          " (" + topology.description() + ")");
    }
  } else {
    if (nodes.size() < 2) {
      say_no_op("numa::spread", topology);
      return plan;
    }
    for (const numa_node_info& n : nodes) order.push_back(&n);
  }
  plan.node.resize(num_threads);
  plan.cpus.resize(num_threads);
  for (std::size_t i = 0; i < num_threads; ++i) {
    const numa_node_info& n = *order[i % order.size()];
    plan.node[i] = static_cast<int>(n.node);
    if (i != 0) plan.cpus[i] = n.cpus;
  }
  return plan;
}

namespace rt {

std::vector<unsigned> numa_nodes() {
  const numa_topology topology;
  std::vector<unsigned> nodes;
  if (!topology.from_hwloc()) return nodes;
  for (const numa_node_info& n : topology.usable_nodes()) nodes.push_back(n.node);
  return nodes;
}

std::size_t numa_node_cpus(unsigned node) {
  const numa_topology topology;
  for (const auto& n : topology.usable_nodes())
    if (n.node == node) return n.cpus.size();
  return 0;
}

void numa_description(std::string& out) { out = numa_topology().description(); }

}  // namespace rt
}  // namespace weft::detail
