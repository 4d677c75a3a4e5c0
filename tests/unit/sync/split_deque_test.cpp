// SPDX-License-Identifier: MIT
// White-box tests of the split deque: owner-only behaviour and publish/steal/pop transitions.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "weft/detail/sync/split_deque.hpp"

using weft::detail::split_deque;

namespace {
void* item(std::uintptr_t i) { return reinterpret_cast<void*>(i + 1); }
}  // namespace

TEST_CASE("private items come back LIFO and are invisible to thieves", "[deque][requirement]") {
  split_deque d(16);
  for (std::uintptr_t i = 0; i < 10; ++i) REQUIRE(d.push(item(i)));
  REQUIRE(d.steal().status == split_deque::steal_status::empty);
  for (std::uintptr_t i = 10; i-- > 0;) REQUIRE(d.pop() == item(i));
  REQUIRE(d.empty());
}

TEST_CASE("a full deque refuses the push", "[deque][requirement]") {
  split_deque d(4);
  for (std::uintptr_t i = 0; i < 4; ++i) REQUIRE(d.push(item(i)));
  REQUIRE_FALSE(d.push(item(4)));
  REQUIRE(d.pop() == item(3));
  REQUIRE(d.push(item(5)));
}

TEST_CASE("published items are stolen oldest first, pop sees what was stolen", "[deque][requirement]") {
  split_deque d(16);
  for (std::uintptr_t i = 0; i < 4; ++i) REQUIRE(d.push(item(i)));
  REQUIRE(d.publish());
  REQUIRE_FALSE(d.publish());  // nothing private left
  auto s = d.steal();
  REQUIRE(s.status == split_deque::steal_status::success);
  REQUIRE(s.item == item(0));
  REQUIRE(s.more);
  REQUIRE(d.pop() == item(3));  // public, taken back by the owner
  REQUIRE(d.pop() == item(2));
  s = d.steal();
  REQUIRE(s.item == item(1));
  REQUIRE_FALSE(s.more);
  REQUIRE(d.public_is_empty());
  REQUIRE(d.pop() == nullptr);  // slot 1 was stolen
  REQUIRE_FALSE(d.empty());     // every pop consumes one slot: slot 0 is still to be taken
  REQUIRE(d.pop() == nullptr);  // slot 0 was stolen (the first steal)
  REQUIRE(d.empty());
  // The deque is reusable after everything was stolen.
  REQUIRE(d.push(item(7)));
  REQUIRE(d.publish());
  REQUIRE(d.steal().item == item(7));
  REQUIRE(d.pop() == nullptr);
  REQUIRE(d.empty());
}

TEST_CASE("after a stolen slot the owner drops every stolen slot down to its floor at once",
          "[deque][requirement]") {
  split_deque d(16);
  for (std::uintptr_t i = 0; i < 10; ++i) REQUIRE(d.push(item(i)));
  REQUIRE(d.publish([](void*) noexcept {}, 8));  // slots 0..7 public, 8 and 9 private
  for (std::uintptr_t i = 0; i < 8; ++i) REQUIRE(d.steal().item == item(i));
  REQUIRE(d.pop() == item(9));
  REQUIRE(d.pop() == item(8));
  REQUIRE(d.pop() == nullptr);  // slot 7 was stolen, and so were 0..6
  d.drop_stolen_down_to(3);     // the caller owns the slots above 3
  REQUIRE(d.size_for_owner() == 3);
  REQUIRE(d.public_is_empty());
  REQUIRE(d.steal().status == split_deque::steal_status::empty);
  // Usable at the new height: a push there is published and stolen as usual.
  REQUIRE(d.push(item(20)));
  REQUIRE(d.publish());
  const auto s = d.steal();
  REQUIRE(s.status == split_deque::steal_status::success);
  REQUIRE(s.item == item(20));
  REQUIRE(s.slot == 3);
  d.drop_stolen_down_to(5);  // at or below the floor already: nothing changes
  REQUIRE(d.size_for_owner() == 4);
}

TEST_CASE("pop_if_private takes the expected slot only when it is private", "[deque][requirement]") {
  split_deque d(16);
  REQUIRE(d.push(item(0)));
  REQUIRE(d.pop_if_private(0));
  REQUIRE(d.empty());
  REQUIRE(d.push(item(1)));
  REQUIRE(d.publish());
  REQUIRE_FALSE(d.pop_if_private(0));  // public: needs the synchronised pop
  REQUIRE(d.pop() == item(1));
}

TEST_CASE("items pushed after a publish stay private until the next publish", "[deque][requirement]") {
  split_deque d(16);
  REQUIRE(d.push(item(0)));
  REQUIRE(d.publish());
  REQUIRE(d.push(item(1)));
  REQUIRE(d.has_private());
  REQUIRE(d.steal().item == item(0));
  REQUIRE(d.steal().status == split_deque::steal_status::empty);
  REQUIRE(d.pop_if_private(1));
  REQUIRE(d.pop() == nullptr);
}

TEST_CASE("publish prepares exactly the items it makes public, before any steal", "[deque][requirement]") {
  split_deque d(16);
  std::vector<void*> prepared;
  auto prepare = [&](void* x) noexcept { prepared.push_back(x); };
  for (std::uintptr_t i = 0; i < 3; ++i) REQUIRE(d.push(item(i)));
  REQUIRE(d.publish(prepare));
  REQUIRE(prepared == std::vector<void*>{item(0), item(1), item(2)});
  REQUIRE_FALSE(d.publish(prepare));  // nothing private: nothing prepared
  REQUIRE(prepared.size() == 3);
  REQUIRE(d.push(item(3)));
  REQUIRE(d.publish(prepare));  // only the new private item
  REQUIRE(prepared.back() == item(3));
  REQUIRE(prepared.size() == 4);
  REQUIRE(d.pop() == item(3));  // taken back (Q6): private again
  REQUIRE(d.pop() == item(2));
  REQUIRE(d.push(item(2)));
  REQUIRE(d.publish(prepare));  // published again: prepared again
  REQUIRE(prepared.size() == 5);
  REQUIRE(prepared.back() == item(2));
  REQUIRE(d.steal().item == item(0));
}

TEST_CASE("the private bound counts items since the last publish or loss", "[deque][requirement]") {
  split_deque d(64);
  REQUIRE_FALSE(d.private_full());  // unbounded by default
  for (std::uintptr_t i = 0; i < 40; ++i) REQUIRE(d.push(item(i)));
  REQUIRE_FALSE(d.private_full());
  while (!d.empty()) d.pop();

  d.set_private_bound(3);
  for (std::uintptr_t i = 0; i < 3; ++i) {
    REQUIRE_FALSE(d.private_full());
    REQUIRE(d.push(item(i)));
  }
  REQUIRE(d.private_full());
  REQUIRE(d.publish());  // the three are public now: a new count starts at slot 3
  REQUIRE_FALSE(d.private_full());
  REQUIRE(d.push(item(3)));
  REQUIRE(d.push(item(4)));
  REQUIRE_FALSE(d.private_full());
  REQUIRE(d.push(item(5)));
  REQUIRE(d.private_full());
  REQUIRE(d.pop() == item(5));  // a private pop lowers the count
  REQUIRE_FALSE(d.private_full());
  REQUIRE(d.pop() == item(4));
  REQUIRE(d.pop() == item(3));
  REQUIRE(d.steal().item == item(0));
  REQUIRE(d.pop() == item(2));  // public pop: split moves down to slot 2
  REQUIRE(d.push(item(6)));
  REQUIRE(d.push(item(7)));
  REQUIRE_FALSE(d.private_full());
  REQUIRE(d.push(item(8)));
  REQUIRE(d.private_full());  // slots 2, 3, 4 are private again
  while (d.size_for_owner() > 2) d.pop();
  REQUIRE(d.pop() == item(1));
  REQUIRE(d.steal().status == split_deque::steal_status::empty);
  d.set_private_bound(0);
  REQUIRE(d.private_full());  // bound 0: nothing is ever recorded
}
