// SPDX-License-Identifier: MIT
// A job is a one-word handle (job_header*) to a frame that knows how to run itself.
// Protocol: docs/protocols/join.md
#pragma once

#include <atomic>
#include <cstdint>

namespace weft::detail {

struct job_header {
  static constexpr std::uint32_t no_thief = ~std::uint32_t{0};
  // Runs the job and signals its completion; after it returns the job may be gone.
  void (*execute)(job_header*) noexcept;
  // Index of the worker that stole this job, for the joiner's leapfrogging; a hint only.
  std::atomic<std::uint32_t> thief{no_thief};
};

}  // namespace weft::detail
