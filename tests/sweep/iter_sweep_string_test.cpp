// SPDX-License-Identifier: MIT
// The iterator sweep (iter_sweep.hpp) for std::string items: the consumers only (items that
// own memory copied into every kind of result), on an indexed and an unindexed pipeline. The
// adaptors are the int sweep's; items that own memory pass through every adaptor in the
// move-only sweep.
#include "iter_sweep.hpp"

TEST_CASE("every consumer matches the sequential reference: std::string", "[iter][sweep]") {
  run_sweep<std::string, false>();
}
