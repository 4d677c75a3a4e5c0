// SPDX-License-Identifier: MIT
// weft's parallel algorithms: the std::execution overload set in namespace weft, plus range
// overloads. This file is the menu; each family lives in algorithm/. Walkthrough and the
// per-algorithm notes: docs/algorithms.md. Migrating: docs/migration.md.
//
// Every policy overload has the signature of its std:: counterpart with the policy first:
//   weft::sort(weft::par, v.begin(), v.end());  // or std::execution::par
// With a parallel policy and random-access iterators the work runs on the current pool (the
// global pool outside any thread_pool::install); otherwise the sequential std:: algorithm
// runs. Unlike std::execution, an exception thrown by user code propagates to the caller
// (the first one, if several threads throw) instead of calling std::terminate.
#pragma once

#include "weft/algorithm/compact.hpp"    // copy_if, remove*, unique*, partition*, stable_partition
#include "weft/algorithm/find.hpp"       // find*, search*, mismatch, equal, all_of, ..., is_heap
#include "weft/algorithm/for_each.hpp"   // for_each, for_each_n
#include "weft/algorithm/invalid_comparator.hpp"  // the exception a detected bad comparator throws
#include "weft/algorithm/memory.hpp"     // uninitialized_*, destroy, destroy_n
#include "weft/algorithm/merge.hpp"      // merge, inplace_merge
#include "weft/algorithm/partial_sort.hpp"  // partial_sort, partial_sort_copy, nth_element
#include "weft/algorithm/reduce.hpp"     // reduce, transform_reduce, count*, min/max_element
#include "weft/algorithm/scan.hpp"       // inclusive/exclusive/transform scans, adjacent_difference
#include "weft/algorithm/set.hpp"        // includes, set_union, set_intersection, set_*difference
#include "weft/algorithm/sort.hpp"       // sort, stable_sort, is_sorted, is_sorted_until
#include "weft/algorithm/transform.hpp"  // copy, move, transform, fill, generate, replace*, ...
#include "weft/execution.hpp"
