// SPDX-License-Identifier: MIT
// weft::stop_requested: what a running task polls to end early once its scope, task_group
// or pipeline was asked to stop. Design: docs/guide.md#cancellation
#pragma once

#include "weft/detail/fork/scope_impl.hpp"

namespace weft {

/// Whether the innermost `weft::scope` or `weft::task_group` whose body or task the calling
/// thread runs was asked to stop: its stop token was stopped, or (task_group) it was
/// canceled by `cancel()` or by an exception of one of its tasks. For a long task to poll
/// and end early. False outside every scope and task_group. A join's branch that another
/// thread runs sees that thread's innermost scope; take the `task_scope&` (or the token)
/// into such a branch to poll exactly the scope you mean.
inline bool stop_requested() noexcept { return detail::innermost_group_canceled(); }

}  // namespace weft
