// SPDX-License-Identifier: MIT
// weft built without hwloc: NUMA placement is a no-op that says so, and a node other than 0
// is an error. Prints "weft <version>: ok" when every check holds.
#include <weft/weft.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

int main() {
  bool ok = true;
  ok = ok && weft::numa::nodes().empty();
  ok = ok && weft::numa::describe().find("built without hwloc") != std::string::npos;
  for (const weft::numa_placement placement : {weft::numa_placement(weft::numa::spread),
                                               weft::numa_placement(weft::numa::node(0))}) {
    weft::thread_pool pool({.num_threads = 3, .numa = placement});
    ok = ok && pool.install([] { return weft::range(0L, 1000L).sum(); }) == 499500;
    for (const auto& w : pool.stats().workers) ok = ok && w.numa_node == -1;
  }
  try {
    weft::thread_pool pool({.num_threads = 2, .numa = weft::numa::node(1)});
    ok = false;
  } catch (const std::invalid_argument&) {
  }
  ok = ok && weft::numa::per_node_pools().size() == 1;
  std::printf("weft %d.%d.%d: %s\n", weft::version_major, weft::version_minor,
              weft::version_patch, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
