// SPDX-License-Identifier: MIT
// Raw storage for n elements: the sorts' and merges' scratch buffer. Nothing is constructed
// or destroyed here; the user of the buffer does both.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace weft::detail::algo {

// Buffers from this size up come from the cache below. Its blocks are rounded up to 2 MiB
// (so that a slightly larger request still fits the cached block) and 2 MiB-aligned.
// They are not offered for transparent huge pages: where a hypervisor takes back the
// guest's free memory, huge pages are carved from such memory and their first touch costs
// the first 20 M-key sort of a process 434-480 ms against 222 ms on 4 KiB pages (one thread,
// an AMD EPYC guest), and later sorts take the same time on either (the scatter streams
// whole lines, so a TLB miss comes once per 64 bytes written, not per element).
inline constexpr std::size_t scratch_align = std::size_t(2) << 20;
inline constexpr std::size_t large_scratch = 4 * scratch_align;
// The largest block the cache below keeps.
inline constexpr std::size_t scratch_cache_max = std::size_t(256) << 20;

// --- the cache of one large block ---------------------------------------------------------
//
// A large scratch buffer costs its first-touch page faults (the kernel zeroes every page) on
// each use: 10-20% of a 20 M-key radix sort. So the last large block (at least
// `large_scratch`, at most `scratch_cache_max` bytes) released is kept for the next large
// scratch request of any thread.
//
// Invariants:
// - A block is owned by exactly one party at any time: the slot, or the scratch object that
//   took it out of the slot (with an exchange) or allocated it. Only the owner reads or
//   writes its memory or its header, and only the owner frees it. Concurrent sorts on
//   different threads therefore never share a block: at most one of them finds it in the
//   slot; the others allocate their own.
// - The slot holds nullptr or one whole block (header + memory, `bytes` a multiple of
//   scratch_align, 2 MiB-aligned), never one in use.
// - What the cache holds at once is bounded: one block of at most scratch_cache_max bytes.
//   A taker that finds the block too small frees it and allocates; a releaser whose block
//   displaces another frees the displaced one.
// - At exit the slot's block is left to the operating system. The slot is a constinit atomic
//   with no destructor, so a sort that runs during static destruction still finds a live
//   slot; the block stays reachable from it, so leak checkers do not report it.
//
// Atomic orderings (the slot is the only shared variable):
// | operation                        | order   | reason                                        |
// |----------------------------------|---------|-----------------------------------------------|
// | scratch_take: exchange(nullptr)  | acquire | pairs with the releaser's release: the header |
// |                                  |         | and the releaser's last writes to the memory  |
// |                                  |         | happen before the taker's use of them         |
// | scratch_put: exchange(block)     | acq_rel | release: publishes the header and our writes  |
// |                                  |         | to the next taker; acquire: the block we get  |
// |                                  |         | back, which we free, was published by its     |
// |                                  |         | own releaser                                  |
struct scratch_block {
  void* p;
  std::size_t bytes;
};

inline scratch_block* scratch_block_new(std::size_t bytes) {
  const std::size_t rounded = (bytes + scratch_align - 1) / scratch_align * scratch_align;
  auto* h = new scratch_block{nullptr, rounded};
  h->p = std::aligned_alloc(scratch_align, rounded);
  if (!h->p) {
    delete h;
    throw std::bad_alloc();
  }
  return h;
}

inline void scratch_block_free(scratch_block* h) noexcept {
  if (!h) return;
  std::free(h->p);
  delete h;
}

inline constinit std::atomic<scratch_block*> scratch_slot{nullptr};

// A block of at least `bytes`: the cached one if it is large enough, else a new one.
inline scratch_block* scratch_take(std::size_t bytes) {
  scratch_block* h = scratch_slot.exchange(nullptr, std::memory_order_acquire);
  if (h && h->bytes >= bytes) return h;
  scratch_block_free(h);
  return scratch_block_new(bytes);
}

// Gives a block back: into the slot (freeing the one it displaces), or freed if too large.
inline void scratch_put(scratch_block* h) noexcept {
  if (h->bytes > scratch_cache_max)
    scratch_block_free(h);
  else
    scratch_block_free(scratch_slot.exchange(h, std::memory_order_acq_rel));
}

// --- the buffer ---------------------------------------------------------------------------

template <class T>
class scratch {
 public:
  explicit scratch(std::size_t n) : n_(n) {
    if (n == 0) return;
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= large_scratch) {
      block_ = scratch_take(bytes);
      p_ = static_cast<T*>(block_->p);
    } else {
      p_ = static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T) > 64 ? alignof(T) : 64)));
    }
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  ~scratch() {
    if (block_)
      scratch_put(block_);
    else if (p_)
      ::operator delete(p_, std::align_val_t(alignof(T) > 64 ? alignof(T) : 64));
  }
  T* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }

 private:
  std::size_t n_;
  T* p_ = nullptr;
  scratch_block* block_ = nullptr;
};

}  // namespace weft::detail::algo
