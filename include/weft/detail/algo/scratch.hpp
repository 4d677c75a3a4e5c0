// SPDX-License-Identifier: MIT
// Raw storage for n elements: the sorts' and merges' scratch buffer. Nothing is constructed
// or destroyed here; the user of the buffer does both.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace weft::detail::algo {

// Buffers from this size up are aligned to 2 MiB and offered to the kernel for transparent
// huge pages: a radix scatter writes to thousands of places at once, and with 4 KiB pages
// each of those writes misses the TLB (measured: the scatter of 20 M keys into 4096 buckets
// took 4x longer on 4 KiB pages).
inline constexpr std::size_t huge_page = std::size_t(2) << 20;
inline constexpr std::size_t large_scratch = 4 * huge_page;
// The largest block the cache below keeps.
inline constexpr std::size_t scratch_cache_max = std::size_t(256) << 20;

// Offers the whole 2 MiB pages inside [p, p + bytes) to the kernel for transparent huge
// pages (a hint: without THP, or without a free huge page, the range stays on 4 KiB pages).
// The first touch of such a page faults in 2 MiB at once instead of 512 faults of 4 KiB.
inline void advise_huge_pages([[maybe_unused]] void* p,
                              [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const auto first = (reinterpret_cast<std::uintptr_t>(p) + huge_page - 1) / huge_page * huge_page;
  const auto last = (reinterpret_cast<std::uintptr_t>(p) + bytes) / huge_page * huge_page;
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

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
//   huge_page, 2 MiB-aligned), never one in use.
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
  const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
  auto* h = new scratch_block{nullptr, rounded};
  h->p = std::aligned_alloc(huge_page, rounded);
  if (!h->p) {
    delete h;
    throw std::bad_alloc();
  }
  advise_huge_pages(h->p, rounded);
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
