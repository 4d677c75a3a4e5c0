// SPDX-License-Identifier: MIT
// The iterator sweep (iter_sweep.hpp) for int items, the consumers only: the ThreadSanitizer
// stage's sweep, where what runs in parallel is the engine under every consumer; the adaptors
// are plain per-item code, swept in full by the Release stage and, over items that own memory,
// by the AddressSanitizer stage.
#include "iter_sweep.hpp"

TEST_CASE("every consumer matches the sequential reference: int", "[iter][sweep]") {
  run_sweep<int, false>();
}
