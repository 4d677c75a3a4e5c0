// SPDX-License-Identifier: MIT
// for_each(f): calls f(item) for every item, in no particular order.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>

#include "weft/iter/node.hpp"
#include "weft/plumbing/value.hpp"

namespace weft::detail {

template <class F>
struct for_each_consumer : splittable_by_copy<for_each_consumer<F>> {
  using result_type = no_result;
  const F* f;

  struct folder {
    const F* f;
    template <class T>
    void consume(std::size_t, T&& x) {
      std::invoke(*f, std::forward<T>(x));
    }
    no_result complete() && { return {}; }
  };
  folder make_folder() const { return {f}; }
  bool full() const { return false; }
  no_result reduce(no_result, no_result) const { return {}; }
};

}  // namespace weft::detail
