// SPDX-License-Identifier: MIT
// What the migration test's program computes: every output it made, in order.
#pragma once

#include <vector>

using migration_result = std::vector<std::vector<long>>;

namespace std_version {
migration_result run();
}
namespace weft_version {
migration_result run();
}
