// SPDX-License-Identifier: MIT
// The iterator sweep (iter_sweep.hpp) for double items.
#include "iter_sweep.hpp"

TEST_CASE("every adaptor and consumer matches the sequential reference: double", "[iter][sweep]") {
  run_sweep<double>();
}
