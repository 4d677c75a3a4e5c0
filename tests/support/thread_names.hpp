// SPDX-License-Identifier: MIT
// The names of this process's threads, as top -H and ps -L show them (/proc/self/task/*/comm):
// for tests of pool_options::thread_name and of the global pool's lifecycle.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace weft_test {

inline std::multiset<std::string> thread_names() {
  std::multiset<std::string> names;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    names.insert(name);
  }
  return names;
}

// Threads named "<prefix>-<n>": a pool's, not a sanitizer's own.
inline std::size_t threads_named(const std::string& prefix) {
  std::size_t n = 0;
  for (const std::string& name : thread_names())
    if (name.rfind(prefix + "-", 0) == 0) ++n;
  return n;
}

}  // namespace weft_test
