// SPDX-License-Identifier: MIT
// The whole public API of weft, on one screen.
#pragma once

#include "weft/algorithm.hpp"  // weft::sort, weft::inclusive_scan, ... (std::execution drop-ins)
#include "weft/broadcast.hpp"  // weft::broadcast
#include "weft/execution.hpp"  // weft::seq, weft::par, weft::par_unseq
#include "weft/future.hpp"     // weft::async, weft::future, weft::when_all
#include "weft/isolate.hpp"    // weft::isolate
#include "weft/iter.hpp"       // weft::iter, weft::range, weft::par_iter
#include "weft/join.hpp"       // weft::join, weft::unit
#include "weft/par_bridge.hpp" // weft::par_bridge: a sequential source pulled by every thread
#include "weft/pool.hpp"       // weft::thread_pool, num_threads, thread_index
#include "weft/scope.hpp"      // weft::scope, weft::task_scope, weft::scope_fifo
#include "weft/slice.hpp"      // weft::slice: a contiguous range's runs (split, chunk_by, ...)
#include "weft/spawn.hpp"      // weft::spawn, weft::spawn_fifo, weft::wait_idle (detached tasks)
#include "weft/stop.hpp"       // weft::stop_requested
#include "weft/task_group.hpp" // weft::task_group
#include "weft/text.hpp"       // weft::str: a text's pieces (lines, split, ...)
#include "weft/thread_limit.hpp" // weft::thread_limit
#include "weft/try_traits.hpp" // weft::try_traits, weft::try_type (fallible pipelines)
#include "weft/version.hpp"    // weft::version_*
#include "weft/yield.hpp"      // weft::yield_now, weft::yield_local
