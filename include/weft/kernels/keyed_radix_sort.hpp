// SPDX-License-Identifier: MIT
// The radix path for a projection that may throw: every key is extracted into a scratch
// array of (key, element) records before any element moves, the records are radix-sorted,
// and the elements move back. The projection runs once per element, never inside the sort.
// Design and measurements: docs/algorithms.md#sort
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <new>

#include "weft/kernels/blocks.hpp"
#include "weft/kernels/radix_sort.hpp"
#include "weft/kernels/scratch.hpp"

namespace weft::detail::algo {

// One element and its extracted key, side by side so that the radix scatters move them
// together.
template <class K, class T>
struct keyed_element {
  K key;
  T value;
};

// Sorts the contiguous [a, a + n) (n >= 2) by proj under the radix order (descending when
// `Descending`); stable. An exception from proj propagates from the extraction pass, before
// any element has moved: the input is then untouched. Elements: radix_movable_v.
template <bool Descending, class K, class T, class Proj>
void keyed_radix_sort(T* a, std::size_t n, const Proj& proj, bool stable) {
  using R = keyed_element<K, T>;
  scratch<R> recs(n);
  R* const r = recs.data();
  for_blocks(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i)
      ::new (static_cast<void*>(&r[i].key)) K(std::invoke(proj, a[i]));
  });
  for_blocks(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) radix_put(&r[i].value, a[i]);
  });
  const auto key_of = [](const R& x) noexcept { return x.key; };
  radix_sort(r, n, radix_key_fn<decltype(key_of), K, Descending>{key_of}, stable);
  for_blocks(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) radix_put(a + i, r[i].value);
  });
}

}  // namespace weft::detail::algo
