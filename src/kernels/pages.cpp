// SPDX-License-Identifier: MIT
// populate_for_write: madvise(MADV_POPULATE_WRITE) on Linux, refused elsewhere.
#include "weft/kernels/pages.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older C library headers lack it
#endif
#endif

namespace weft::detail::algo {

bool populate_for_write(void* first, std::size_t bytes) noexcept {
#if defined(__linux__)
  // A kernel before 5.14 answers EINVAL; the caller then touches the pages itself.
  return madvise(first, bytes, MADV_POPULATE_WRITE) == 0;
#else
  (void)first;
  (void)bytes;
  return false;
#endif
}

}  // namespace weft::detail::algo
