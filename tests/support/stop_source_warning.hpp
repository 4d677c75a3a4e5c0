// SPDX-License-Identifier: MIT
// For test files that build std::stop_source objects: GCC 12 with AddressSanitizer reports
// libstdc++'s own std::stop_source() constructor as "may be used uninitialized" (its state
// reference is built from *this), a false positive in the system header inlined into the
// test. Included first, it silences that warning for the rest of the file only.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
