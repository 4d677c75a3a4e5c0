// SPDX-License-Identifier: MIT
// spawn_arena, white-box: size classes, local reuse, frees from other threads (A1-A3, R1-R2).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "weft/detail/sync/spawn_arena.hpp"

using weft::detail::spawn_arena;

TEST_CASE("spawn_arena: size classes", "[spawn_arena]") {
  REQUIRE(spawn_arena::class_of(1, 8) == 0);
  REQUIRE(spawn_arena::class_of(64, 8) == 0);
  REQUIRE(spawn_arena::class_of(65, 8) == 1);
  REQUIRE(spawn_arena::class_of(256, 16) == 2);
  REQUIRE(spawn_arena::class_of(512, 64) == 3);
  REQUIRE(spawn_arena::class_of(513, 8) == spawn_arena::no_class);
  REQUIRE(spawn_arena::class_of(64, 128) == spawn_arena::no_class);
}

TEST_CASE("spawn_arena: blocks are aligned, distinct, and reused newest first", "[spawn_arena]") {
  spawn_arena arena;
  std::set<void*> seen;
  std::vector<void*> blocks;
  for (int i = 0; i < 5000; ++i) {  // several chunks, every class
    const auto c = static_cast<std::uint8_t>(i % spawn_arena::class_count);
    void* b = arena.allocate(c);
    REQUIRE(reinterpret_cast<std::uintptr_t>(b) % 64 == 0);
    REQUIRE(seen.insert(b).second);
    std::memset(b, 0xAB, spawn_arena::min_block_bytes << c);  // the whole block is usable
    blocks.push_back(b);
  }
  void* last = blocks.back();
  const auto last_class = static_cast<std::uint8_t>((blocks.size() - 1) % spawn_arena::class_count);
  spawn_arena::deallocate(last, last_class, &arena);
  REQUIRE(arena.allocate(last_class) == last);
  arena.deallocate_own(last, last_class);
  REQUIRE(arena.allocate(last_class) == last);
  for (std::size_t i = 0; i < blocks.size(); ++i)
    spawn_arena::deallocate(blocks[i], static_cast<std::uint8_t>(i % spawn_arena::class_count), &arena);
}

TEST_CASE("spawn_arena: blocks freed by other threads come back to their owner", "[spawn_arena]") {
  spawn_arena arena;
  const int rounds = static_cast<int>(weft_test::stress_iters(20));
  std::set<void*> first_blocks;
  for (int round = 0; round < rounds; ++round) {
    std::vector<void*> blocks;
    for (int i = 0; i < 4000; ++i) {
      void* b = arena.allocate(1);
      static_cast<std::uint64_t*>(b)[3] = static_cast<std::uint64_t>(i);  // the owner's write
      blocks.push_back(b);
    }
    if (round == 0) first_blocks.insert(blocks.begin(), blocks.end());
    // Four freers, each with its own arena (a worker of the same pool) or none.
    std::vector<std::thread> freers;
    for (int t = 0; t < 4; ++t)
      freers.emplace_back([&, t] {
        spawn_arena mine;
        for (std::size_t i = static_cast<std::size_t>(t); i < blocks.size(); i += 4) {
          auto* p = static_cast<std::uint64_t*>(blocks[i]);
          if (p[3] != i) std::abort();  // the owner's write is visible to the freer
          spawn_arena::deallocate(p, 1, t % 2 == 0 ? &mine : nullptr);
        }
      });
    for (auto& t : freers) t.join();
  }
  // Every block came back: the next 4000 of class 1 are the first round's blocks again.
  std::set<void*> again;
  for (int i = 0; i < 4000; ++i) again.insert(arena.allocate(1));
  REQUIRE(again == first_blocks);
  for (void* b : again) arena.deallocate_own(b, 1);
}
