// SPDX-License-Identifier: MIT
// The spawn arena: each worker's allocator for the tasks it spawns (no malloc per spawn).
// Protocol: docs/protocols/spawn.md#the-spawn-arena
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

#include "weft/detail/config.hpp"
#include "weft/detail/sync/cache_padded.hpp"

namespace weft::detail {

// ---------------------------------------------------------------------------------------
// Contract. A block returned by allocate() (E1) is owned by the caller until it is passed
// to deallocate() (E2), on any thread. Every write made to a block before E2 happens before
// the next allocate() that returns the same block. Blocks live until their arena is
// destroyed, which must come after every block was deallocated (a pool destroys its
// workers' arenas only after its threads joined and every task finished).
//
// Roles. owner: the thread acting as the arena's worker (allocate, deallocate of its own
// blocks); remote freer: any other thread that deallocates a block of this arena.
//
// State and layout. Blocks come in four size classes (64, 128, 256, 512 bytes), carved
// with a bump pointer from 64 KiB chunks aligned to 64 KiB; a chunk's first line names
// its arena, so a block finds its owner by masking its address (no header per block).
// Owner-only line: one free list per class (`local_`), the bump range, the chunk list.
// Shared line (cache-padded): one lock-free stack per class (`remote_`) of blocks freed
// by other threads.
//
// Invariants.
//   A1  a block is in at most one place: in use, on a local list, or on a remote stack.
//   A2  only the owner touches local_, bump_ and chunks_; a remote freer only pushes.
//   A3  remote stacks are only pushed (CAS) by freers and only emptied whole (exchange)
//       by the owner, so no pop races a push: there is no ABA.
//
// Ordering table.
// | tag | where             | operation                     | order   | pairs with | why
// |-----|-------------------|-------------------------------|---------|------------|-----
// | R1  | remote free       | CAS remote_[c]: push block    | release | R2         | the freer's writes (its last use, the link) before reuse
// | R2  | allocate (owner)  | exchange remote_[c] -> null   | acquire | R1         | sees the links and every write of the freers
// | R3  | allocate (owner)  | load remote_[c]               | relaxed | -          | skips the exchange when nothing was freed remotely
// ---------------------------------------------------------------------------------------
class spawn_arena {
 public:
  static constexpr std::size_t class_count = 4;
  static constexpr std::size_t min_block_bytes = 64;
  static constexpr std::size_t max_block_bytes = min_block_bytes << (class_count - 1);
  static constexpr std::size_t chunk_bytes = std::size_t{64} << 10;
  // The class of a block for `bytes` (aligned to at most 64), or no_class: too large.
  static constexpr std::uint8_t no_class = 0xFF;
  static constexpr std::uint8_t class_of(std::size_t bytes, std::size_t align) noexcept {
    if (align > min_block_bytes) return no_class;
    std::uint8_t c = 0;
    for (std::size_t size = min_block_bytes; size < bytes; size *= 2) {
      if (++c == class_count) return no_class;
    }
    return c;
  }

  spawn_arena() noexcept = default;
  spawn_arena(const spawn_arena&) = delete;
  spawn_arena& operator=(const spawn_arena&) = delete;
  ~spawn_arena() {
    while (chunks_ != nullptr) {
      chunk_header* next = chunks_->next;
      ::operator delete(static_cast<void*>(chunks_), std::align_val_t{chunk_bytes});
      chunks_ = next;
    }
  }

  // Owner only. A block of class `c`. Throws std::bad_alloc when a new chunk is needed
  // and cannot be had.
  WEFT_INLINE void* allocate(std::uint8_t c) {
    if (free_block* b = local_[c]) [[likely]] {
      local_[c] = b->next;
      return b;
    }
    return allocate_slow(c);
  }

  // Owner only, for a block of this arena (a task that never left its spawner).
  WEFT_INLINE void deallocate_own(void* block, std::uint8_t c) noexcept {
    auto* b = static_cast<free_block*>(block);
    b->next = local_[c];
    local_[c] = b;
  }

  // Any thread. `mine` is the calling thread's arena (nullptr if it has none): a block of
  // `mine` goes back to its local list, any other to its owner's remote stack.
  WEFT_INLINE static void deallocate(void* block, std::uint8_t c, spawn_arena* mine) noexcept {
    spawn_arena* owner = owner_of(block);
    auto* b = static_cast<free_block*>(block);
    if (owner == mine) [[likely]] {
      b->next = owner->local_[c];
      owner->local_[c] = b;
      return;
    }
    owner->push_remote(b, c);
  }

 private:
  struct free_block {
    free_block* next;
  };
  struct alignas(min_block_bytes) chunk_header {
    spawn_arena* owner;
    chunk_header* next;
  };

  static spawn_arena* owner_of(void* block) noexcept {
    const auto chunk = reinterpret_cast<std::uintptr_t>(block) & ~(std::uintptr_t{chunk_bytes} - 1);
    return reinterpret_cast<chunk_header*>(chunk)->owner;
  }

  void push_remote(free_block* b, std::uint8_t c) noexcept {
    std::atomic<free_block*>& head = remote_.value[c];
    free_block* top = head.load(std::memory_order_relaxed);
    do {
      b->next = top;
    } while (!head.compare_exchange_weak(top, b, std::memory_order_release,  // R1
                                         std::memory_order_relaxed));
  }

  WEFT_COLD void* allocate_slow(std::uint8_t c) {
    std::atomic<free_block*>& head = remote_.value[c];
    if (head.load(std::memory_order_relaxed) != nullptr) {  // R3
      if (free_block* b = head.exchange(nullptr, std::memory_order_acquire)) {  // R2
        local_[c] = b->next;
        return b;
      }
    }
    const std::size_t bytes = min_block_bytes << c;
    if (static_cast<std::size_t>(bump_end_ - bump_) < bytes) {
      void* raw = ::operator new(chunk_bytes, std::align_val_t{chunk_bytes});
      auto* chunk = ::new (raw) chunk_header{this, chunks_};
      chunks_ = chunk;
      bump_ = static_cast<char*>(raw) + sizeof(chunk_header);
      bump_end_ = static_cast<char*>(raw) + chunk_bytes;
    }
    void* b = bump_;
    bump_ += bytes;
    return b;
  }

  // Owner-only line.
  std::array<free_block*, class_count> local_{};
  char* bump_ = nullptr;
  char* bump_end_ = nullptr;
  chunk_header* chunks_ = nullptr;
  // Shared line: pushed by remote freers, emptied by the owner.
  cache_padded<std::array<std::atomic<free_block*>, class_count>> remote_{};
};

}  // namespace weft::detail
