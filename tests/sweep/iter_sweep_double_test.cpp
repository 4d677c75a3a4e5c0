// SPDX-License-Identifier: MIT
// The iterator sweep (iter_sweep.hpp) for double items: the consumers only (sums, products,
// min and max of a floating-point type), on an indexed and an unindexed pipeline; the
// adaptors are the int sweep's.
#include "iter_sweep.hpp"

TEST_CASE("every consumer matches the sequential reference: double", "[iter][sweep]") {
  run_sweep<double, false>();
}
