// SPDX-License-Identifier: MIT
// pool_options::numa and weft::numa: where each thread of a placed pool runs, read on the
// thread itself, against the topology the test expects. ctest runs this program on the
// machine's own topology and on hwloc's synthetic ones (HWLOC_SYNTHETIC, with
// WEFT_TEST_NUMA_LAYOUT="<nodes>x<CPUs per node>" telling the test what that topology is):
// a synthetic topology numbers its CPUs 0, 1, ... node after node, and this process may run
// on some of them only, which the expectations take into account. Black-box.
#include <catch2/catch.hpp>
#include <sched.h>

#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "weft/weft.hpp"

namespace {

using cpu_list = std::vector<unsigned>;

cpu_list own_affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  cpu_list cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (unsigned c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// "0-3,8" -> {0, 1, 2, 3, 8}
cpu_list parse_cpu_list(const std::string& text) {
  cpu_list cpus;
  std::stringstream in(text);
  std::string range;
  while (std::getline(in, range, ',')) {
    if (range.empty() || range == "\n") continue;
    const std::size_t dash = range.find('-');
    const unsigned first = static_cast<unsigned>(std::stoul(range.substr(0, dash)));
    const unsigned last =
        dash == std::string::npos ? first : static_cast<unsigned>(std::stoul(range.substr(dash + 1)));
    for (unsigned c = first; c <= last; ++c) cpus.push_back(c);
  }
  return cpus;
}

// Every NUMA node (OS number -> its CPUs) of the topology weft should see: the synthetic one
// WEFT_TEST_NUMA_LAYOUT describes, else the machine's from sysfs (one node with every CPU
// where the kernel shows none).
std::map<unsigned, cpu_list> expected_topology() {
  std::map<unsigned, cpu_list> nodes;
  if (const char* layout = std::getenv("WEFT_TEST_NUMA_LAYOUT")) {
    const std::string l = layout;
    const unsigned count = static_cast<unsigned>(std::stoul(l.substr(0, l.find('x'))));
    const unsigned per_node = static_cast<unsigned>(std::stoul(l.substr(l.find('x') + 1)));
    for (unsigned n = 0; n < count; ++n)
      for (unsigned c = 0; c < per_node; ++c) nodes[n].push_back(n * per_node + c);
    return nodes;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/sys/devices/system/node", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("node", 0) != 0 || name.size() == 4 ||
        name.find_first_not_of("0123456789", 4) != std::string::npos)
      continue;
    std::ifstream in(entry.path() / "cpulist");
    std::string text;
    std::getline(in, text);
    nodes[static_cast<unsigned>(std::stoul(name.substr(4)))] = parse_cpu_list(text);
  }
  if (nodes.empty()) nodes[0] = parse_cpu_list("0-" + std::to_string(CPU_SETSIZE - 1));
  return nodes;
}

// The nodes with CPUs this process may run on, and those CPUs.
std::map<unsigned, cpu_list> usable_nodes() {
  const cpu_list allowed = own_affinity();
  std::map<unsigned, cpu_list> usable;
  for (const auto& [node, cpus] : expected_topology()) {
    cpu_list mine;
    for (const unsigned c : cpus)
      if (std::find(allowed.begin(), allowed.end(), c) != allowed.end()) mine.push_back(c);
    if (!mine.empty()) usable[node] = mine;
  }
  return usable;
}

std::vector<unsigned> keys(const std::map<unsigned, cpu_list>& m) {
  std::vector<unsigned> out;
  for (const auto& kv : m) out.push_back(kv.first);
  return out;
}

// Each thread's affinity read on the thread (broadcast), the one its start handler saw, and
// its node from stats().
struct placement_report {
  std::vector<cpu_list> on_thread;
  std::vector<cpu_list> at_start;
  std::vector<int> node;
  std::size_t threads = 0;
};

placement_report placed_pool(weft::pool_options o) {
  placement_report report;
  std::mutex m;
  std::map<std::size_t, cpu_list> at_start;
  o.on_thread_start = [&](std::size_t i) {
    std::lock_guard<std::mutex> lock(m);
    at_start[i] = own_affinity();
  };
  weft::thread_pool pool(std::move(o));
  report.threads = pool.num_threads();
  report.on_thread.resize(report.threads);
  weft::broadcast(pool, [&](std::size_t i) { report.on_thread[i] = own_affinity(); });
  for (const auto& w : pool.stats().workers) report.node.push_back(w.numa_node);
  report.at_start.resize(report.threads);
  for (auto& [i, cpus] : at_start) report.at_start[i] = cpus;
  return report;
}

}  // namespace

TEST_CASE("numa::nodes lists the nodes this process may run on", "[numa]") {
  const auto usable = usable_nodes();
  REQUIRE(weft::numa::nodes() == keys(usable));
  INFO(weft::numa::describe());
  REQUIRE(weft::numa::describe().rfind("hwloc (API 2.", 0) == 0);
}

TEST_CASE("numa::spread places thread i on node nodes()[i % count]", "[numa]") {
  const auto usable = usable_nodes();
  const std::vector<unsigned> ids = keys(usable);
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}, std::size_t{7}}) {
    INFO(threads << " threads on " << weft::numa::describe());
    const placement_report r = placed_pool({.num_threads = threads, .numa = weft::numa::spread});
    REQUIRE(r.node.size() == threads);
    if (ids.size() >= 2) {
      for (std::size_t i = 0; i < threads; ++i) {
        const unsigned node = ids[i % ids.size()];
        REQUIRE(r.node[i] == static_cast<int>(node));
        if (i == 0) continue;  // the caller seat runs on the caller's thread, unplaced
        REQUIRE(r.on_thread[i] == usable.at(node));
        REQUIRE(r.at_start[i] == usable.at(node));  // placed before its start handler
      }
      REQUIRE(r.on_thread[0] == own_affinity());
    } else {
      // One usable node: a no-op (said once on stderr), every thread free.
      for (std::size_t i = 0; i < threads; ++i) {
        REQUIRE(r.node[i] == -1);
        REQUIRE(r.on_thread[i] == own_affinity());
      }
    }
  }
}

TEST_CASE("numa::node(k) places every thread on node k", "[numa]") {
  const auto usable = usable_nodes();
  for (const auto& [node, cpus] : usable) {
    for (const std::size_t threads : {std::size_t{1}, std::size_t{2}, std::size_t{7}}) {
      const placement_report r = placed_pool({.num_threads = threads, .numa = weft::numa::node(node)});
      for (std::size_t i = 0; i < threads; ++i) {
        REQUIRE(r.node[i] == static_cast<int>(node));
        if (i == 0) continue;
        REQUIRE(r.on_thread[i] == cpus);
        REQUIRE(r.at_start[i] == cpus);
      }
    }
    // num_threads 0: one thread per CPU of the node.
    weft::thread_pool sized({.numa = weft::numa::node(node)});
    REQUIRE(sized.num_threads() == cpus.size());
  }
}

namespace {
// Pages of this process's memory under a NUMA policy other than the default that names
// `node` ("prefer (many):1", "bind:1"), from /proc/self/numa_maps; -1 where the kernel has
// no such file.
long pages_bound_to(unsigned node) {
  std::ifstream in("/proc/self/numa_maps");
  if (!in) return -1;
  long pages = 0;
  std::string line;
  const std::string tag = ":" + std::to_string(node);
  while (std::getline(in, line)) {
    const std::size_t policy_end = line.find(" heap");
    const std::string head = line.substr(0, policy_end == std::string::npos ? 80 : policy_end);
    if (head.find("default") != std::string::npos || head.find(tag) == std::string::npos) continue;
    const std::size_t anon = line.find(" anon=");
    if (anon != std::string::npos) pages += std::stol(line.substr(anon + 6));
  }
  return pages;
}
}  // namespace

TEST_CASE("a placed pool binds each worker's queue memory to its node, until it ends", "[numa]") {
  const auto usable = usable_nodes();
  const bool synthetic = std::getenv("WEFT_TEST_NUMA_LAYOUT") != nullptr;
  for (const auto& kv : usable) {
    const unsigned node = kv.first;
    const long before = pages_bound_to(node);
    if (before < 0) {
      WARN("no /proc/self/numa_maps: memory placement not observed");
      return;
    }
    {
      weft::thread_pool pool({.num_threads = 3, .numa = weft::numa::node(node)});
      const long during = pages_bound_to(node);
      if (synthetic) {
        REQUIRE(during == before);  // a synthetic topology is not this machine's memory
      } else {
        REQUIRE(during >= before + 3 * 8);  // 3 queues of 8 pages (4,096 slots of 8 bytes)
      }
    }
    REQUIRE(pages_bound_to(node) == before);  // back to the default policy
  }
}

TEST_CASE("per_node_pools builds one pool per usable node", "[numa]") {
  const auto usable = usable_nodes();
  std::vector<weft::thread_pool> pools = weft::numa::per_node_pools({.thread_name = "numa"});
  REQUIRE(pools.size() == usable.size());
  std::size_t k = 0;
  for (const auto& [node, cpus] : usable) {
    weft::thread_pool& pool = pools[k++];
    REQUIRE(pool.num_threads() == cpus.size());
    for (const auto& w : pool.stats().workers) REQUIRE(w.numa_node == static_cast<int>(node));
    std::vector<cpu_list> seen(pool.num_threads());
    weft::broadcast(pool, [&](std::size_t i) { seen[i] = own_affinity(); });
    for (std::size_t i = 1; i < seen.size(); ++i) REQUIRE(seen[i] == cpus);
    // The pool works: a parallel sum over its threads.
    const long sum = pool.install([] {
      return weft::range(0L, 100000L).sum();
    });
    REQUIRE(sum == 100000L * 99999L / 2);
  }
}

TEST_CASE("numa placement refuses what it cannot do, with a message", "[numa]") {
  const auto topology = expected_topology();
  const auto usable = usable_nodes();
  // A node that does not exist.
  unsigned absent = 0;
  while (topology.count(absent) != 0) ++absent;
  try {
    weft::thread_pool p({.num_threads = 2, .numa = weft::numa::node(absent)});
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    REQUIRE(std::string(e.what()).find("no such NUMA node") != std::string::npos);
  }
  // A node with none of this process's CPUs (a synthetic topology larger than the machine).
  for (const auto& [node, cpus] : topology) {
    if (usable.count(node) != 0) continue;
    try {
      weft::thread_pool p({.num_threads = 2, .numa = weft::numa::node(node)});
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      REQUIRE(std::string(e.what()).find("none of the CPUs") != std::string::npos);
    }
  }
  // pin and numa together.
  REQUIRE_THROWS_AS(weft::thread_pool({.num_threads = 2,
                                       .pin = weft::pin::compact,
                                       .numa = weft::numa::spread}),
                    std::invalid_argument);
  // The default: not placed.
  const placement_report free_pool = placed_pool({.num_threads = 3});
  for (std::size_t i = 0; i < 3; ++i) {
    REQUIRE(free_pool.node[i] == -1);
    REQUIRE(free_pool.on_thread[i] == own_affinity());
  }
}
