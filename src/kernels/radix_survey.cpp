// SPDX-License-Identifier: MIT
// The block engine's instances for the radix sort's survey pass (its reduction of per-block
// histograms), compiled once like the plain ones in src/plumbing/blocks.cpp.
#include "weft/kernels/radix_sort.hpp"

namespace weft::detail::algo {

std::optional<radix_survey<std::uint32_t>> run_blocks(
    std::size_t n, const reduce_blocks_consumer<radix_survey<std::uint32_t>>& c,
    const split_options& opt) {
  return plumbing::bridge(index_producer{0, n}, c, opt);
}
std::optional<radix_survey<std::uint64_t>> run_blocks(
    std::size_t n, const reduce_blocks_consumer<radix_survey<std::uint64_t>>& c,
    const split_options& opt) {
  return plumbing::bridge(index_producer{0, n}, c, opt);
}

}  // namespace weft::detail::algo
