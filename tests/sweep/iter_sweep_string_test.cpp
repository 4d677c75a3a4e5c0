// SPDX-License-Identifier: MIT
// The iterator sweep (iter_sweep.hpp) for std::string items.
#include "iter_sweep.hpp"

TEST_CASE("every adaptor and consumer matches the sequential reference: std::string", "[iter][sweep]") {
  run_sweep<std::string>();
}
