// SPDX-License-Identifier: MIT
// The single source of weft's version: CMake and conanfile.py parse these lines.
#pragma once

#define WEFT_VERSION_MAJOR 0
#define WEFT_VERSION_MINOR 2
#define WEFT_VERSION_PATCH 0

namespace weft {
inline constexpr int version_major = WEFT_VERSION_MAJOR;
inline constexpr int version_minor = WEFT_VERSION_MINOR;
inline constexpr int version_patch = WEFT_VERSION_PATCH;
}  // namespace weft
