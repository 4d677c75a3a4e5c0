// SPDX-License-Identifier: MIT
// The iterator sweep (iter_sweep.hpp) for int items.
#include "iter_sweep.hpp"

TEST_CASE("every adaptor and consumer matches the sequential reference: int", "[iter][sweep]") {
  run_sweep<int>();
}
