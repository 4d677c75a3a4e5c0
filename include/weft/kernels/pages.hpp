// SPDX-License-Identifier: MIT
// The first touch of a large fresh buffer: its page faults, taken on every worker at once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "weft/detail/config.hpp"
#include "weft/plumbing/blocks.hpp"

namespace weft::detail::algo {

inline constexpr std::size_t fault_page_bytes = 4096;

// Makes the pages of [first, first + bytes) resident and writable as a write to each would,
// without writing anything (Linux 5.14's MADV_POPULATE_WRITE): the bytes keep their values,
// so the range may share its first and last page with other objects. `first` is
// page-aligned. False where the platform or the kernel cannot, or the kernel failed part way.
WEFT_API bool populate_for_write(void* first, std::size_t bytes) noexcept;

// Faults in the pages of the raw storage [p, p + bytes) (no object lives there yet) on all
// the workers. A fresh buffer's first touch is mostly the kernel's work (it zeroes each page,
// and under a hypervisor the page may fault there too), so spreading it over the workers
// divides it; asking the kernel for a block of pages in one call also saves the trap of each
// page's fault: 400 MB on an AMD EPYC, one thread, 171-177 ms as one write per page,
// 110-168 ms as one call. Where the call is refused, one byte of each page in the range is written.
inline void prefault(void* p, std::size_t bytes) {
  if (bytes == 0) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t base = begin / fault_page_bytes * fault_page_bytes;
  const std::size_t pages = (begin + bytes - base + fault_page_bytes - 1) / fault_page_bytes;
  for_blocks(pages, [=](std::size_t first, std::size_t last) {
    const std::uintptr_t lo = base + first * fault_page_bytes;
    const std::uintptr_t hi = base + last * fault_page_bytes;
    if (populate_for_write(reinterpret_cast<void*>(lo), hi - lo)) return;
    // Only bytes of [p, p + bytes): the first page may begin before p.
    for (std::uintptr_t page = lo; page < hi; page += fault_page_bytes)
      *reinterpret_cast<volatile unsigned char*>(page < begin ? begin : page) = 0;
  });
}

}  // namespace weft::detail::algo
