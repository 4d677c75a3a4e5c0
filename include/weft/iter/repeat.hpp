// SPDX-License-Identifier: MIT
// Sources of copies of one value: repeat_n (n copies), once (one) and empty (none).
#pragma once

#include <cstddef>
#include <utility>

namespace weft::detail {

// Items are copies of *value, which the node owns and the pipeline keeps alive while any
// producer of it runs (a producer lives inside one drive of the node).
template <class T>
struct repeat_producer {
  const T* value;
  std::size_t n;

  std::size_t size() const { return n; }
  T operator[](std::size_t) const { return *value; }
  repeat_producer slice(std::size_t lo, std::size_t hi) const { return {value, hi - lo}; }
};

template <class T>
class repeat_node {
 public:
  static constexpr bool indexed = true;
  using item_type = T;

  repeat_node(T value, std::size_t n) : value_(std::move(value)), n_(n) {}
  std::size_t size() const { return n_; }
  repeat_producer<T> producer() const { return {&value_, n_}; }

 private:
  T value_;
  std::size_t n_;
};

// No items; operator[] is never called (size 0, and slices of it are empty).
template <class T>
struct empty_producer {
  std::size_t size() const { return 0; }
  T operator[](std::size_t) const { __builtin_unreachable(); }
  empty_producer slice(std::size_t, std::size_t) const { return {}; }
};

template <class T>
class empty_node {
 public:
  static constexpr bool indexed = true;
  using item_type = T;

  std::size_t size() const { return 0; }
  empty_producer<T> producer() const { return {}; }
};

}  // namespace weft::detail
