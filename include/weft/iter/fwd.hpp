// SPDX-License-Identifier: MIT
// Declarations of par_iter and weft::iter for the files of iter/ that name them before
// weft/iter.hpp defines them (a source's or an adaptor's other side becomes a pipeline as
// iter(other) makes it).
#pragma once

namespace weft {

template <class Node>
class par_iter;

template <class R>
auto iter(R&& r);

}  // namespace weft
