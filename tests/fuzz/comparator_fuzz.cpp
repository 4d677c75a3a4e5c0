// SPDX-License-Identifier: MIT
// libFuzzer target: every comparator-taking algorithm, with weft::seq or weft::par, on a pool
// of 1, 2 or 7 threads, with a comparator whose answers come from the fuzzer's bytes (or
// `<=`, always true, `<` that throws at a chosen call), and the radix sort by a projection
// that may throw, whose key changes or throws the same way. Checks what holds for any comparator
// (docs/algorithms.md#invalid-comparators): the call returns or throws (libFuzzer's -timeout
// catches a hang), stays in bounds (ASan), leaves a permutation where it rearranges, and
// writes copies of input elements within the bound a valid comparator would need.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "fuzz_input.hpp"

namespace {

using weft_fuzz::check;

struct thrown {};

// The comparator's answers. `bytes`: bit k of the answer bytes at the k-th call (cycled);
// `noisy`: `<`, flipped where that bit is set; `le`: `<=`; `yes`: always true; `throws`: `<`
// until call `throw_at`. Calls are counted across threads, so at several threads the answer
// to a given pair depends on the schedule, as a random comparator's does.
struct answers {
  enum mode_t { bytes, noisy, le, yes, throws } mode;
  std::vector<std::uint8_t> bits;
  std::uint64_t throw_at = 0;
  mutable std::atomic<std::uint64_t> calls{0};
};

struct fuzz_comp {
  const answers* a;
  bool operator()(int x, int y) const {
    const std::uint64_t k = a->calls.fetch_add(1, std::memory_order_relaxed);
    const auto bit = [&] {
      if (a->bits.empty()) return false;
      return ((a->bits[(k / 8) % a->bits.size()] >> (k % 8)) & 1) != 0;
    };
    switch (a->mode) {
      case answers::bytes: return bit();
      case answers::noisy: return (x < y) != bit();
      case answers::le: return x <= y;
      case answers::yes: return true;
      case answers::throws:
        if (k == a->throw_at) throw thrown{};
        return x < y;
    }
    return false;
  }
  // A projection from the same answers, for the radix path's checked sort: `bytes` and
  // `noisy` change the key where the bit is set (a key that answers differently on a later
  // call), `le` and `yes` are the identity, `throws` throws at call `throw_at`.
  int key(int x) const {
    const std::uint64_t k = a->calls.fetch_add(1, std::memory_order_relaxed);
    switch (a->mode) {
      case answers::bytes:
      case answers::noisy:
        if (!a->bits.empty() && ((a->bits[(k / 8) % a->bits.size()] >> (k % 8)) & 1) != 0)
          return x ^ 0x5A5A;
        return x;
      case answers::le:
      case answers::yes: return x;
      case answers::throws:
        if (k == a->throw_at) throw thrown{};
        return x;
    }
    return x;
  }
};

std::vector<int> sorted_copy(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

bool drawn_from(std::vector<int>::const_iterator first, std::vector<int>::const_iterator last,
                const std::vector<int>& pool) {
  for (; first != last; ++first)
    if (!std::binary_search(pool.begin(), pool.end(), *first)) return false;
  return true;
}

// Runs f; the exceptions any comparator may cause are outcomes, not findings.
template <class F>
bool returned(F&& f) {
  try {
    f();
    return true;
  } catch (const thrown&) {
  } catch (const weft::invalid_comparator&) {
  }
  return false;
}

template <class Policy>
void run(Policy policy, int algo, const std::vector<int>& in, std::size_t cut, bool halves_sorted,
         const fuzz_comp& comp) {
  const std::size_t n = in.size();
  const auto whole = sorted_copy(in);
  std::vector<int> v = in;
  const auto at = [&](std::size_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i); };
  if (halves_sorted) {
    std::sort(v.begin(), at(cut));
    std::sort(at(cut), v.end());
  }
  const auto permutation = [&] { check(sorted_copy(v) == whole, "the range is no permutation of its input"); };
  std::vector<int> out(n);
  std::vector<int>::iterator end;
  const auto written = [&](std::size_t bound) {
    check(end >= out.begin() && static_cast<std::size_t>(end - out.begin()) <= bound, "output past its bound");
    check(drawn_from(out.begin(), end, whole), "output holds a value that is no input element");
  };
  const auto in_range = [&](std::vector<int>::iterator it, bool may_be_last) {
    check(it >= v.begin() && it <= v.end() && (may_be_last || n == 0 || it != v.end()), "result outside the range");
  };
  switch (algo) {
    case 0: returned([&] { weft::sort(policy, v.begin(), v.end(), comp); }); return permutation();
    case 1: returned([&] { weft::stable_sort(policy, v.begin(), v.end(), comp); }); return permutation();
    case 2: returned([&] { weft::partial_sort(policy, v.begin(), at(cut), v.end(), comp); }); return permutation();
    case 3: returned([&] { weft::nth_element(policy, v.begin(), at(cut), v.end(), comp); }); return permutation();
    case 4: returned([&] { weft::inplace_merge(policy, v.begin(), at(cut), v.end(), comp); }); return permutation();
    case 5: returned([&] { weft::sort(v, comp); }); return permutation();
    case 6: returned([&] { weft::stable_sort(v, comp); }); return permutation();
    case 7:
      if (returned([&] { end = weft::merge(policy, v.begin(), at(cut), at(cut), v.end(), out.begin(), comp); })) {
        check(end == out.end(), "merge did not write n1 + n2 elements");
        check(sorted_copy(out) == whole, "merge's output is no permutation of its inputs");
      }
      return;
    case 8:
      if (returned([&] { end = weft::set_union(policy, v.begin(), at(cut), at(cut), v.end(), out.begin(), comp); })) written(n);
      return;
    case 9:
      if (returned([&] { end = weft::set_intersection(policy, v.begin(), at(cut), at(cut), v.end(), out.begin(), comp); }))
        written(std::min(cut, n - cut));
      return;
    case 10:
      if (returned([&] { end = weft::set_difference(policy, v.begin(), at(cut), at(cut), v.end(), out.begin(), comp); })) written(cut);
      return;
    case 11:
      if (returned([&] { end = weft::set_symmetric_difference(policy, v.begin(), at(cut), at(cut), v.end(), out.begin(), comp); }))
        written(n);
      return;
    case 12:
      if (returned([&] { end = weft::partial_sort_copy(policy, v.begin(), v.end(), out.begin(), out.begin() + static_cast<std::ptrdiff_t>(cut), comp); }))
        written(cut);
      return;
    case 13: returned([&] { (void)weft::includes(policy, v.begin(), at(cut), at(cut), v.end(), comp); }); return;
    case 14: {
      std::vector<int>::iterator it;
      if (returned([&] { it = weft::min_element(policy, v.begin(), v.end(), comp); })) in_range(it, false);
      if (returned([&] { it = weft::max_element(policy, v.begin(), v.end(), comp); })) in_range(it, false);
      std::pair<std::vector<int>::iterator, std::vector<int>::iterator> mm;
      if (returned([&] { mm = weft::minmax_element(policy, v.begin(), v.end(), comp); })) {
        in_range(mm.first, false);
        in_range(mm.second, false);
      }
      return;
    }
    case 15: {
      std::vector<int>::iterator it;
      if (returned([&] { it = weft::is_sorted_until(policy, v.begin(), v.end(), comp); })) in_range(it, true);
      returned([&] { (void)weft::is_sorted(policy, v.begin(), v.end(), comp); });
      return;
    }
    case 16: {
      // The radix path with a projection that may throw (keyed_radix_sort.hpp): a key that
      // changes or throws leaves a permutation; a consistent one sorts.
      const auto proj = [&](int x) { return comp.key(x); };
      const bool consistent = comp.a->mode == answers::le || comp.a->mode == answers::yes;
      if (returned([&] { weft::stable_sort(v, {}, proj); }) && consistent)
        check(std::is_sorted(v.begin(), v.end()), "stable_sort by a projection did not sort");
      permutation();
      if (returned([&] { weft::sort(v, std::ranges::greater{}, proj); }) && consistent)
        check(std::is_sorted(v.rbegin(), v.rend()), "sort by a projection did not sort");
      return permutation();
    }
    default: {
      std::optional<int> best;
      if (returned([&] { best = weft::iter(v).min_by(comp); }))
        check(best.has_value() == (n > 0) && (!best || std::binary_search(whole.begin(), whole.end(), *best)), "min_by");
      if (returned([&] { best = weft::iter(v).max_by(comp); }))
        check(best.has_value() == (n > 0) && (!best || std::binary_search(whole.begin(), whole.end(), *best)), "max_by");
      return;
    }
  }
}

}  // namespace

// Layout: pool, algorithm, policy and flags, mode, length (2 bytes), spread, cut, throw_at,
// then the elements' seeds and the answer bits (the rest).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  weft_fuzz::input in{data, size};
  weft::thread_pool& pool = weft_fuzz::pool_for(in.byte());
  const int algo = in.byte() % 18;
  const std::uint8_t flags = in.byte();
  answers a;
  a.mode = static_cast<answers::mode_t>(in.byte() % 5);
  // Mostly short inputs; a long one (several sort tiles and merge chunks) when bit 7 is set.
  std::size_t n = in.u16();
  n = (flags & 0x80) != 0 ? n % 40000 : n % 300;
  const int spread = 1 + in.byte();
  const std::size_t cut = n == 0 ? 0 : in.u16() % (n + 1);
  a.throw_at = in.u16();
  std::vector<int> elems(n);
  std::uint32_t seed = static_cast<std::uint32_t>(in.u16()) * 2654435761u + 1;
  for (int& e : elems) {
    seed = seed * 1664525u + 1013904223u;
    e = static_cast<int>((seed >> 8) % static_cast<std::uint32_t>(spread));
  }
  a.bits.assign(data + in.pos, data + size);
  const fuzz_comp comp{&a};
  const bool halves_sorted = (flags & 1) != 0;
  pool.install([&] {
    if ((flags & 2) != 0)
      run(weft::seq, algo, elems, cut, halves_sorted, comp);
    else
      run(weft::par, algo, elems, cut, halves_sorted, comp);
  });
  return 0;
}
