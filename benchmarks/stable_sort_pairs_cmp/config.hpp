// SPDX-License-Identifier: MIT
// stable_sort_pairs_cmp: stable_sort_pairs's input sorted through the std signature, a
// comparator on the key that no library can see through (no radix path): the comparison
// sorts' own speed. Each timed call sorts a fresh copy; the copy is untimed.
#pragma once

#include "stable_sort_pairs/config.hpp"

namespace weft_bench::stable_sort_pairs_cmp {

using stable_sort_pairs::by_key;
using stable_sort_pairs::checksum;
using stable_sort_pairs::make_input;
using stable_sort_pairs::pair_t;
inline constexpr std::size_t default_n = stable_sort_pairs::default_n;
inline constexpr std::size_t quick_n = stable_sort_pairs::quick_n;

using run_fn = timed<std::uint64_t>(const std::vector<pair_t>& v, int threads, int reps);
run_fn run_seq, run_weft, run_stdpar;

inline constexpr peer<run_fn> peers[] = {
    {"seq", &run_seq},
    {"weft", &run_weft},
    {"stdpar", WEFT_BENCH_IF_STDPAR(&run_stdpar)},
};

}  // namespace weft_bench::stable_sort_pairs_cmp
