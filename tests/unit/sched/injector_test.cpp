// SPDX-License-Identifier: MIT
// The injector: put, take, reclaim, and exactly-once under concurrent takers.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "injector.hpp"

using weft::detail::injector;
using weft::detail::job_header;

namespace {
// The injector only moves handles: a job that is never run needs no body.
struct test_job : job_header {
  test_job() noexcept : job_header(nullptr) {}
};
}  // namespace

TEST_CASE("put then take returns the job once", "[injection][requirement]") {
  injector inj;
  test_job a, b;
  REQUIRE_FALSE(inj.has_jobs());
  inj.put(&a);
  inj.put(&b);
  REQUIRE(inj.has_jobs());
  job_header* x = inj.take();
  job_header* y = inj.take();
  REQUIRE(((x == &a && y == &b) || (x == &b && y == &a)));
  REQUIRE(inj.take() == nullptr);
  REQUIRE_FALSE(inj.has_jobs());
}

TEST_CASE("a submitter reclaims a job nobody took", "[injection][requirement]") {
  injector inj;
  test_job a;
  inj.put(&a);
  REQUIRE(inj.reclaim(&a));
  REQUIRE_FALSE(inj.reclaim(&a));
  REQUIRE(inj.take() == nullptr);
}

TEST_CASE("concurrent submitters and takers: every job exactly once", "[injection][requirement]") {
  injector inj;
  constexpr int per_thread = 20000;
  std::vector<test_job> jobs(2 * per_thread);
  std::vector<std::atomic<int>> seen(jobs.size());
  std::atomic<int> taken{0};
  auto submit = [&](int base) {
    for (int i = 0; i < per_thread; ++i) inj.put(&jobs[base + i]);
  };
  auto drain = [&] {
    while (taken.load() < static_cast<int>(jobs.size())) {
      if (job_header* j = inj.take()) {
        seen[static_cast<test_job*>(j) - jobs.data()].fetch_add(1);
        taken.fetch_add(1);
      }
    }
  };
  std::thread s1(submit, 0), s2(submit, per_thread), t1(drain), t2(drain);
  s1.join();
  s2.join();
  t1.join();
  t2.join();
  for (auto& s : seen) REQUIRE(s.load() == 1);
}
