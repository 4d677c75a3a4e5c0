// SPDX-License-Identifier: MIT
// Cache-line padding, so that fields written by different threads never share a line.
#pragma once

#include <cstddef>

namespace weft::detail {

// 128 rather than 64: adjacent-line prefetchers on x86 pull lines in pairs.
inline constexpr std::size_t cache_line_bytes = 128;

template <class T>
struct alignas(cache_line_bytes) cache_padded {
  T value;
};

}  // namespace weft::detail
