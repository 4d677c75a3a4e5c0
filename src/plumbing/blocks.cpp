// SPDX-License-Identifier: MIT
// The block engine's instances: plumbing::bridge over [0, n) for the block consumers whose
// types do not depend on the call, compiled once (plumbing/blocks.hpp says why).
#include "weft/plumbing/blocks.hpp"

namespace weft::detail::algo {

namespace {
template <class C>
typename C::result_type bridge_indices(std::size_t n, const C& c,
                                       const split_options& opt = {}) {
  return plumbing::bridge(index_producer{0, n}, c, opt);
}
}  // namespace

no_result run_blocks(std::size_t n, const for_blocks_consumer& c, const split_options& opt) {
  return bridge_indices(n, c, opt);
}

std::size_t run_blocks(std::size_t n, const find_blocks_consumer& c) {
  return bridge_indices(n, c);
}
bool run_blocks(std::size_t n, const any_blocks_consumer& c) { return bridge_indices(n, c); }

std::optional<int> run_blocks(std::size_t n, const reduce_blocks_consumer<int>& c,
    const split_options& opt) {
  return bridge_indices(n, c, opt);
}
std::optional<unsigned> run_blocks(std::size_t n, const reduce_blocks_consumer<unsigned>& c,
    const split_options& opt) {
  return bridge_indices(n, c, opt);
}
std::optional<long> run_blocks(std::size_t n, const reduce_blocks_consumer<long>& c,
    const split_options& opt) {
  return bridge_indices(n, c, opt);
}
std::optional<unsigned long> run_blocks(std::size_t n,
                                        const reduce_blocks_consumer<unsigned long>& c,
    const split_options& opt) {
  return bridge_indices(n, c, opt);
}
std::optional<long long> run_blocks(std::size_t n, const reduce_blocks_consumer<long long>& c,
    const split_options& opt) {
  return bridge_indices(n, c, opt);
}
std::optional<unsigned long long> run_blocks(std::size_t n,
                                             const reduce_blocks_consumer<unsigned long long>& c,
    const split_options& opt) {
  return bridge_indices(n, c, opt);
}
std::optional<float> run_blocks(std::size_t n, const reduce_blocks_consumer<float>& c,
    const split_options& opt) {
  return bridge_indices(n, c, opt);
}
std::optional<double> run_blocks(std::size_t n, const reduce_blocks_consumer<double>& c,
    const split_options& opt) {
  return bridge_indices(n, c, opt);
}
std::optional<index_pair> run_blocks(std::size_t n, const reduce_blocks_consumer<index_pair>& c,
    const split_options& opt) {
  return bridge_indices(n, c, opt);
}

}  // namespace weft::detail::algo
