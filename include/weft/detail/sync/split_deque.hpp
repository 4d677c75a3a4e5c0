// SPDX-License-Identifier: MIT
// The per-worker work-stealing deque: a split deque with a private and a public region.
// Protocol: docs/protocols/deque.md   Decision: docs/decisions/0001-split-deque.md
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "weft/detail/config.hpp"
#include "weft/detail/sync/cache_padded.hpp"

namespace weft::detail {

// ---------------------------------------------------------------------------------------
// Contract. push (E1) of x, followed by publish (E2), followed by a steal returning x (E3):
// every write the owner made before E1, or made by E2's `prepare` callback, is visible to
// the thief after E3. Every pushed item
// is returned exactly once: by pop (to the owner) or by steal (to one thief).
//
// Roles. One owner (push, pop, publish, has_unpublished); any number of thieves (steal).
//
// State. Slots [0, head) hold items, bottom (oldest) to top (newest).
//   [tail, split)  public: thieves may take slot `tail` by advancing it;
//   [split, head)  private: only the owner knows these exist.
//   `head`, `owner_split` and `private_limit` (owner_split + the private bound, see
//   private_full) are owner-only (plain fields on the owner's line). `tail`,
//   `split` and a 32-bit `tag` are packed in one 64-bit word `public_` on its own line,
//   so that every transition of the public region is a single atomic operation.
//   The owner is the only writer of `split` and `tag`; thieves only increment `tail`.
//
// Invariants.
//   I1  tail <= split <= head (split == owner_split whenever the owner is not mid-update).
//   I2  a slot index below split is written only while it is at or above head, i.e.
//       before it is published; a thief reads slot[t] only for t in [tail, split).
//   I3  every change of `public_` made by the owner increments `tag`; thieves keep it.
//       A thief's CAS therefore succeeds only if the owner did nothing since the thief's
//       snapshot: the slot it read before the CAS is the slot it claims (no ABA).
//   I4  if slot i was stolen, every slot below i was stolen too (thieves take the oldest).
//
// The fast paths: push of a private item and pop of a private item touch only owner-only
// fields and the slot: no read-modify-write, no fence. Only publish (when another thread
// is hungry) and popping a published item synchronise with thieves.
//
// Ordering table (tags are repeated at the code sites).
// | tag | where         | operation                  | order          | pairs with | why
// |-----|---------------|----------------------------|----------------|------------|-----
// | Q1  | push          | store slot                 | relaxed        | Q2 via Q3  | published by Q3's release
// | -   | publish       | prepare(item): plain stores| -              | Q2 via Q3  | the item is complete before it is stealable
// | Q3  | publish       | CAS public_ (split up)     | release        | Q4, Q5     | slot and job contents visible before the index
// | Q4  | steal         | load public_               | acquire        | Q3         | read the slot published by the owner
// | Q2  | steal         | load slot                  | relaxed        | Q1         | ordered by Q4; validated by Q5 (I3)
// | Q5  | steal         | CAS public_ (tail + 1)     | acq_rel / relaxed on failure | Q3, Q6, Q5 | one winner per slot; RMWs extend Q3's release sequence
// | Q6  | pop (public)  | CAS public_ (split down)   | acq_rel        | Q5         | owner and thieves decide ownership of slot i on one word
// | Q7  | pop (stolen), drop_stolen_down_to (drop_all_stolen) | store public_ {i, i, tag+1}| release | Q4 | tail == split here, so no thief CAS can succeed; tag bump (I3)
//
// TSan: there are no standalone fences here, so TSan sees every pairing as written.
// ---------------------------------------------------------------------------------------

using job_handle = void*;

class split_deque {
 public:
  static constexpr std::uint32_t default_capacity = 4096;

  explicit split_deque(std::uint32_t capacity = default_capacity)
      : slots_(allocate_slots(capacity)), capacity_(capacity) {
    if (capacity >= 0xFFFFu) fatal("split_deque: capacity must fit the 16-bit indices");
  }

  // The slots' memory: whole pages of their own (page-aligned, a multiple of the page size),
  // so that a NUMA-placed pool can bind it to its worker's node without moving anything
  // else (src/sched/numa.hpp). Not touched by push or steal.
  void* slot_memory() const noexcept { return slots_.get(); }
  static constexpr std::size_t slot_memory_bytes(std::uint32_t capacity) noexcept {
    return (capacity * sizeof(std::atomic<job_handle>) + slot_page_bytes - 1) / slot_page_bytes *
           slot_page_bytes;
  }
  std::size_t slot_memory_bytes() const noexcept { return slot_memory_bytes(capacity_); }

  // Owner only. False when full: the caller runs the item inline instead.
  // push, pop and pop_if_private close the gate after their own stores: only the owner acts
  // on an open gate, so where the close falls inside the call does not matter to anyone, and
  // closing first makes the compiler reload head_ after the atomic store (nqueens(12), one
  // spawn per placement, one thread: 2.13x sequential closing first, 1.85x closing last).
  WEFT_INLINE bool push(job_handle item) noexcept {
    if (head_ == capacity_) [[unlikely]] return false;
    slots_[head_].store(item, std::memory_order_relaxed);  // Q1
    ++head_;
    close_gate();
    return true;
  }

  // Owner only. Removes the newest item. Returns it if the owner got it back, nullptr if a
  // thief took it (the slot is consumed either way). Precondition: !empty().
  WEFT_INLINE job_handle pop() noexcept {
    WEFT_ASSERT(head_ > 0);
    const std::uint32_t i = head_ - 1;
    if (i >= owner_split_) [[likely]] {  // private: nobody else can see slot i (I1, I2)
      head_ = i;
      const job_handle item = slots_[i].load(std::memory_order_relaxed);
      close_gate();
      return item;
    }
    return pop_public_cold(i);
  }

  // Owner only, right after pop() returned nullptr: the slot at the new height was stolen,
  // and by I4 so was every slot below it. Drops the height to `floor` at once (one Q7 store
  // instead of one per slot); the caller owns every slot above `floor`.
  void drop_stolen_down_to(std::uint32_t floor) noexcept {
    if (head_ <= floor) return;
    close_gate();
    head_ = floor;
    owner_split_ = floor;
    private_limit_ = floor + private_bound_;
    const std::uint64_t cur = public_.value.load(std::memory_order_relaxed);
    public_.value.store(pack(floor, floor, tag_of(cur) + 1), std::memory_order_release);  // Q7
  }

  // Owner only. The join fast path: if the newest item sits at `index` and is still private,
  // removes it without reading the slot (the caller knows what it pushed there).
  WEFT_INLINE bool pop_if_private(std::uint32_t index) noexcept {
    const bool mine = head_ == index + 1 && index >= owner_split_;  // I1, I2
    if (mine) [[likely]]
      head_ = index;
    close_gate();
    return mine;
  }

  // Owner only. Makes the `max_items` oldest private items (all by default) stealable.
  // Returns false if there were none. `prepare(item)` runs on each first, while it is still
  // private: whatever it writes is published with the item by Q3 (the owner's writes before
  // Q3, contract). Thieves take the oldest public item first, so a partial publish hands
  // out the largest pieces and keeps the rest private.
  template <class Prepare>
  bool publish(Prepare&& prepare, std::uint32_t max_items = ~std::uint32_t{0}) noexcept {
    if (owner_split_ == head_) return false;
    close_gate();
    const std::uint32_t split =
        head_ - owner_split_ > max_items ? owner_split_ + max_items : head_;
    for (std::uint32_t i = owner_split_; i < split; ++i)
      prepare(slots_[i].load(std::memory_order_relaxed));
    std::uint64_t cur = public_.value.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint64_t next = pack(tail_of(cur), split, tag_of(cur) + 1);
      if (public_.value.compare_exchange_weak(cur, next, std::memory_order_release,  // Q3
                                              std::memory_order_relaxed))
        break;
    }
    owner_split_ = split;
    private_limit_ = split + private_bound_;
    return true;
  }
  bool publish() noexcept {
    return publish([](job_handle) noexcept {});
  }

  // Owner only: true when nothing is public any more (every published item was taken).
  bool public_is_empty() const noexcept {
    const std::uint64_t cur = public_.value.load(std::memory_order_relaxed);
    return tail_of(cur) == split_of(cur);
  }
  bool has_private() const noexcept { return owner_split_ < head_; }
  // Owner only, with no frame of its own on the deque (worker 0 as a new seat holder enters
  // it): when every item below the height was stolen, drops the height to 0, as
  // drop_stolen_down_to does after a pop (tail == split == head: no thief can succeed).
  // Items left by earlier holders and stolen since otherwise keep their slots, and the
  // height creeps up to the capacity. Returns the height.
  std::uint32_t drop_all_stolen() noexcept {
    if (head_ != 0 && owner_split_ == head_ && public_is_empty()) [[unlikely]]
      drop_stolen_down_to(0);
    return head_;
  }
  // Owner only.
  std::uint32_t private_count() const noexcept { return head_ - owner_split_; }
  // Owner only. True once the private region holds `private_bound` items: the caller may
  // then run new work inline instead of pushing it (join's unrecorded path, ADR 0006).
  // Publishing or losing the private region to thieves starts a new count.
  WEFT_INLINE bool private_full() const noexcept { return head_ >= private_limit_; }
  // The same, counting `held` more items: forks whose jobs the owner took back and runs now
  // (weft::async's taken-back tasks), which still stand for a pending fork of the recursion.
  WEFT_INLINE bool private_full(std::uint32_t held) const noexcept {
    return head_ + held >= private_limit_;
  }
  void set_private_bound(std::uint32_t bound) noexcept {
    close_gate();
    private_bound_ = bound;
    private_limit_ = owner_split_ + bound;
  }
  std::uint32_t size_for_owner() const noexcept { return head_; }
  // Owner only: the item in slot i < size_for_owner() (stolen or not), to inspect it.
  job_handle item_at(std::uint32_t i) const noexcept {
    return slots_[i].load(std::memory_order_relaxed);
  }

  // The join gate (protocol: sched/worker.hpp, docs/protocols/join.md): a word that is 1 only
  // while the owner may run joins unrecorded without looking at anything else. Every owner
  // mutation above closes it, so an open gate always describes the deque as it is now.
  // Owner: opens the gate (G1; the caller re-checks hunger after it, see worker).
  void open_gate() noexcept { gate_.store(1, std::memory_order_seq_cst); }  // G1
  // Owner: closes it (G3). Closing is always safe: it costs one slow-path join.
  void close_gate() noexcept { gate_.store(0, std::memory_order_relaxed); }  // G3
  // Any thread: closes it after that thread made itself hungry (G2; load first, so that a
  // closed gate's line is not written).
  void poke_gate() noexcept {
    if (gate_.load(std::memory_order_seq_cst) != 0)     // G2
      gate_.store(0, std::memory_order_seq_cst);        // G2
  }
  const std::atomic<std::uint32_t>& gate() const noexcept { return gate_; }
  bool empty() const noexcept { return head_ == 0; }

  enum class steal_status { success, empty, retry };
  struct steal_result {
    steal_status status;
    job_handle item;
    bool more;  // public items remain after this one: worth waking another thief
    std::uint32_t slot;  // where the item was (isolation: worker::isolated_from)
  };

  // Any thread.
  steal_result steal() noexcept {
    std::uint64_t cur = public_.value.load(std::memory_order_acquire);  // Q4
    const std::uint32_t t = tail_of(cur), s = split_of(cur);
    if (t >= s) return {steal_status::empty, nullptr, false, 0};
    job_handle item = slots_[t].load(std::memory_order_relaxed);  // Q2, validated by Q5 (I3)
    const std::uint64_t next = pack(t + 1, s, tag_of(cur));
    if (public_.value.compare_exchange_strong(cur, next, std::memory_order_acq_rel,  // Q5
                                              std::memory_order_relaxed))
      return {steal_status::success, item, t + 1 < s, t};
    return {steal_status::retry, nullptr, false, 0};
  }

  // Any thread, for heuristics only: are there public items right now?
  bool looks_stealable() const noexcept {
    const std::uint64_t cur = public_.value.load(std::memory_order_relaxed);
    return tail_of(cur) < split_of(cur);
  }

 private:
  // pop's public case; closes the gate first, as every mutation does (G3).
  WEFT_COLD job_handle pop_public_cold(std::uint32_t i) noexcept {
    close_gate();
    std::uint64_t cur = public_.value.load(std::memory_order_relaxed);
    for (;;) {
      WEFT_ASSERT(tail_of(cur) <= split_of(cur) && split_of(cur) <= head_);  // I1
      if (tail_of(cur) > i) {
        // Slot i was stolen, and by I4 so was everything below it: tail == split == i + 1,
        // so no thief can succeed while we reset the public region to empty at i.
        head_ = i;
        owner_split_ = i;
        private_limit_ = i + private_bound_;
        public_.value.store(pack(i, i, tag_of(cur) + 1), std::memory_order_release);  // Q7
        return nullptr;
      }
      // Take slot i (and everything above) back into the private region.
      const std::uint64_t next = pack(tail_of(cur), i, tag_of(cur) + 1);
      if (public_.value.compare_exchange_weak(cur, next, std::memory_order_acq_rel,  // Q6
                                              std::memory_order_relaxed)) {
        head_ = i;
        owner_split_ = i;
        private_limit_ = i + private_bound_;
        return slots_[i].load(std::memory_order_relaxed);
      }
    }
  }

  static constexpr std::uint64_t pack(std::uint32_t tail, std::uint32_t split,
                                      std::uint32_t tag) noexcept {
    return std::uint64_t{tail} | (std::uint64_t{split} << 16) | (std::uint64_t{tag} << 32);
  }
  static constexpr std::uint32_t tail_of(std::uint64_t w) noexcept { return w & 0xFFFFu; }
  static constexpr std::uint32_t split_of(std::uint64_t w) noexcept { return (w >> 16) & 0xFFFFu; }
  static constexpr std::uint32_t tag_of(std::uint64_t w) noexcept {
    return static_cast<std::uint32_t>(w >> 32);
  }

  static constexpr std::size_t slot_page_bytes = 4096;
  struct slots_deleter {
    void operator()(std::atomic<job_handle>* slots) const noexcept {
      ::operator delete(static_cast<void*>(slots), std::align_val_t{slot_page_bytes});
    }
  };
  static std::atomic<job_handle>* allocate_slots(std::uint32_t capacity) {
    void* memory = ::operator new(slot_memory_bytes(capacity), std::align_val_t{slot_page_bytes});
    auto* slots = static_cast<std::atomic<job_handle>*>(memory);
    for (std::uint32_t i = 0; i < capacity; ++i) ::new (slots + i) std::atomic<job_handle>(nullptr);
    return slots;
  }

  // Read-only after construction: read by the owner and by every thief.
  std::unique_ptr<std::atomic<job_handle>[], slots_deleter> slots_;
  std::uint32_t capacity_;
  // Owner-only line.
  alignas(cache_line_bytes) std::uint32_t head_ = 0;
  std::uint32_t owner_split_ = 0;
  // Unbounded by default: head_ < 2^16 never reaches split + 2^16.
  std::uint32_t private_bound_ = std::uint32_t{1} << 16;
  std::uint32_t private_limit_ = private_bound_;
  // Written by the owner (open, close) and by hungry threads (close only): see gate().
  std::atomic<std::uint32_t> gate_{0};
  // Shared line: read by every thief, written by the owner only to publish and reclaim.
  cache_padded<std::atomic<std::uint64_t>> public_{0};
};

}  // namespace weft::detail
