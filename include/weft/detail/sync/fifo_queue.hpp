// SPDX-License-Identifier: MIT
// A mutex-protected intrusive FIFO: where FIFO spawns wait for the job that runs them.
// Protocol: docs/protocols/spawn.md#fifo-spawns
#pragma once

#include <mutex>

#include "weft/detail/config.hpp"

namespace weft::detail {

// A node's link; the node is owned by the queue from push() until the pop() that returns it.
struct fifo_node {
  fifo_node* next = nullptr;
};

// Contract. pop() returns the oldest node pushed and not popped yet, in the order of the
// queue's mutex; every write made to a node before its push() is visible after the pop()
// that returns it (the mutex's unlock and lock).
// Precondition of pop(): the queue is not empty. Its users guarantee it by pushing one
// node per job that pops, before that job can run (detail/fork/fifo_impl.hpp, Q1).
class fifo_queue {
 public:
  fifo_queue() noexcept = default;
  fifo_queue(const fifo_queue&) = delete;
  fifo_queue& operator=(const fifo_queue&) = delete;
  ~fifo_queue() { WEFT_ASSERT(head_ == nullptr); }

  void push(fifo_node* node) noexcept {
    node->next = nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    if (tail_ != nullptr)
      tail_->next = node;
    else
      head_ = node;
    tail_ = node;
  }

  fifo_node* pop() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    fifo_node* const node = head_;
    WEFT_ASSERT(node != nullptr);
    head_ = node->next;
    if (head_ == nullptr) tail_ = nullptr;
    return node;
  }

 private:
  std::mutex mutex_;
  fifo_node* head_ = nullptr;  // guarded by mutex_
  fifo_node* tail_ = nullptr;  // guarded by mutex_
};

}  // namespace weft::detail
