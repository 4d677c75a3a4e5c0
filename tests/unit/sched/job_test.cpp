// SPDX-License-Identifier: MIT
// Job headers: the fields other threads read exist from construction, or from share_prepare.
#include <catch2/catch.hpp>

#include "weft/detail/sched/job.hpp"
#include "weft/detail/sched/worker.hpp"

using weft::detail::job_header;
using weft::detail::worker;

namespace {
void do_nothing(job_header*) noexcept {}
}  // namespace

TEST_CASE("a job shared from the start has its latch and thief hint", "[job][requirement]") {
  job_header j(&do_nothing, nullptr);
  REQUIRE(j.execute == &do_nothing);
  REQUIRE_FALSE(j.done.probe());
  REQUIRE(j.done.is_futex_latch());
  REQUIRE(j.thief.get().load() == job_header::no_thief);
}

TEST_CASE("a deferred job gets its latch and thief hint from share_prepare", "[job][requirement]") {
  worker owner;
  job_header j(&do_nothing, weft::detail::deferred);
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
