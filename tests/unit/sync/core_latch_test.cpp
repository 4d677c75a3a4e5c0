// SPDX-License-Identifier: MIT
// The four-state latch: every transition of docs/protocols/latch.md.
#include <catch2/catch.hpp>

#include "weft/detail/sync/core_latch.hpp"

using weft::detail::core_latch;

TEST_CASE("set on an awake waiter needs no wake-up", "[latch][requirement]") {
  core_latch l;
  REQUIRE_FALSE(l.probe());
  REQUIRE_FALSE(l.set());
  REQUIRE(l.probe());
}

TEST_CASE("set on a sleeping waiter reports it", "[latch][requirement]") {
  core_latch l;
  REQUIRE(l.get_sleepy());
  REQUIRE(l.fall_asleep());
  REQUIRE(l.set());
  REQUIRE(l.probe());
}

TEST_CASE("a waiter cannot fall asleep once the latch is set", "[latch][requirement]") {
  core_latch l;
  REQUIRE(l.get_sleepy());
  REQUIRE_FALSE(l.set());  // sleepy, not sleeping: the waiter re-checks before blocking
  REQUIRE_FALSE(l.fall_asleep());
  REQUIRE_FALSE(l.get_sleepy());
  l.wake_up();
  REQUIRE(l.probe());
}

TEST_CASE("a spurious wake-up returns the waiter to unset", "[latch][requirement]") {
  core_latch l;
  REQUIRE(l.get_sleepy());
  REQUIRE(l.fall_asleep());
  l.wake_up();
  REQUIRE_FALSE(l.probe());
  REQUIRE(l.get_sleepy());
}

TEST_CASE("a deferred latch starts unset at reset, and reset restarts it", "[latch][requirement]") {
  core_latch l(weft::detail::deferred);
  l.reset();
  REQUIRE_FALSE(l.probe());
  REQUIRE(l.get_sleepy());
  REQUIRE_FALSE(l.set());
  REQUIRE(l.probe());
  l.reset();  // a job retaken by its owner and published again
  REQUIRE_FALSE(l.probe());
  REQUIRE(l.get_sleepy());
}
