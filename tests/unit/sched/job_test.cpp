// SPDX-License-Identifier: MIT
// Job headers: the fields other threads read exist from construction, or from share_prepare.
#include <catch2/catch.hpp>

#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/worker.hpp"

using weft::detail::job_header;
using weft::detail::spawned_job;
using weft::detail::waited_job;
using weft::detail::worker;

namespace {
void do_nothing(job_header*) noexcept {}
}  // namespace

TEST_CASE("a job shared from the start has its latch and thief hint", "[job][requirement]") {
  waited_job j(&do_nothing, nullptr);
  REQUIRE(j.execute == &do_nothing);
  REQUIRE_FALSE(j.done.probe());
  REQUIRE(j.done.is_futex_latch());
  REQUIRE(j.thief.get().load() == job_header::no_thief);
}

TEST_CASE("a deferred job gets its latch and thief hint from share_prepare", "[job][requirement]") {
  worker owner;
  waited_job j(&do_nothing, weft::detail::deferred);
  REQUIRE(j.execute == &do_nothing);
  j.share_prepare(owner);
  REQUIRE_FALSE(j.done.probe());
  REQUIRE_FALSE(j.done.is_futex_latch());
  REQUIRE(j.thief.get().load() == job_header::no_thief);
  j.share_prepare(owner);  // taken back by its owner (never run) and published again
  REQUIRE_FALSE(j.done.probe());
  j.thief.get().store(1);  // stolen
  j.done.set();            // the waiter is awake: no wake-up needed, `owner` is not touched
  REQUIRE(j.done.probe());
}

// A spawned task carries no latch (its group counts it): its header is 24 bytes, so a task
// whose callable has up to 40 bytes fits one 64-byte arena block, one cache line.
TEST_CASE("a spawned job's header leaves 40 bytes of a 64-byte block", "[job][requirement]") {
  STATIC_REQUIRE(sizeof(job_header) == 16);
  STATIC_REQUIRE(sizeof(spawned_job) == 24);
  struct forty_bytes {
    void* p[5];
  };
  struct task : spawned_job {
    forty_bytes f;
  };
  STATIC_REQUIRE(sizeof(task) == 64);
}
