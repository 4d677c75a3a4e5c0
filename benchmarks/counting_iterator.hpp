// SPDX-License-Identifier: MIT
// A random-access iterator over the integers, for the std::execution::par peers: the
// parallel algorithms run std::views::iota's iterators (input iterators to them) serially.
#pragma once

#include <compare>
#include <cstddef>
#include <iterator>

namespace weft_bench {

template <class T>
class counting_iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = const T*;
  using reference = T;  // a value, as tbb::counting_iterator has it

  counting_iterator() = default;
  explicit counting_iterator(T v) : v_(v) {}

  T operator*() const { return v_; }
  T operator[](difference_type n) const { return static_cast<T>(v_ + n); }
  counting_iterator& operator++() { ++v_; return *this; }
  counting_iterator operator++(int) { auto t = *this; ++v_; return t; }
  counting_iterator& operator--() { --v_; return *this; }
  counting_iterator operator--(int) { auto t = *this; --v_; return t; }
  counting_iterator& operator+=(difference_type n) { v_ = static_cast<T>(v_ + n); return *this; }
  counting_iterator& operator-=(difference_type n) { v_ = static_cast<T>(v_ - n); return *this; }
  friend counting_iterator operator+(counting_iterator it, difference_type n) { return it += n; }
  friend counting_iterator operator+(difference_type n, counting_iterator it) { return it += n; }
  friend counting_iterator operator-(counting_iterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(counting_iterator a, counting_iterator b) {
    return static_cast<difference_type>(a.v_ - b.v_);
  }
  friend bool operator==(counting_iterator a, counting_iterator b) { return a.v_ == b.v_; }
  friend auto operator<=>(counting_iterator a, counting_iterator b) { return a.v_ <=> b.v_; }

 private:
  T v_{};
};

}  // namespace weft_bench
