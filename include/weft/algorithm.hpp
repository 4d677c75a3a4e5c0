// SPDX-License-Identifier: MIT
// weft's parallel algorithms: the std::execution overload set in namespace weft, plus range
// overloads. This file is the menu; each family lives in algorithm/.
// Migrating: replace std::execution::par with weft::par and std:: with weft:: (docs/migration.md).
#pragma once

#include "weft/algorithm/compact.hpp"
#include "weft/algorithm/for_each.hpp"
#include "weft/algorithm/scan.hpp"
#include "weft/execution.hpp"
