// SPDX-License-Identifier: MIT
// A thread's bias on one pool's caller seat: what run_in reads to enter the seat inline.
// Protocol: src/seat.cpp (B1..B6), docs/protocols/injection.md#the-biased-seat
#pragma once

#include <atomic>
#include <cstdint>

#include "weft/detail/config.hpp"

namespace weft::detail {

class registry;
struct worker;

// The seat of `reg` is reserved for the thread this belongs to (one per thread), which
// enters and leaves it with no atomic read-modify-write: BiasEnter (active = 1), BiasCheck
// (*word == seat_value), ... BiasExit (active = 0), BiasCheck.
struct seat_bias {
  // The pool whose seat is reserved, or nullptr. Read by its thread; cleared by its thread,
  // or under the seat's bias mutex by a revoker or by the pool's destructor (B4).
  std::atomic<registry*> reg{nullptr};
  // Set at the grant, with `reg`, by its thread: the pool's seat word and its worker 0.
  std::atomic<std::uint64_t>* word = nullptr;
  worker* seat_worker = nullptr;
  // The seat word's value while the bias stands: biased(E).
  std::uint64_t seat_value = 0;
  // 1 while its thread runs as worker 0 through the bias (BiasEnter .. BiasExit); read by
  // a revoker after its membarrier (BiasRead).
  std::atomic<std::uint32_t> active{0};
};

// The calling thread's bias. Exported like current_worker: libweft grants and revokes it,
// the caller's code (run_in) reads it.
WEFT_API constinit inline thread_local seat_bias this_thread_bias{};

}  // namespace weft::detail
