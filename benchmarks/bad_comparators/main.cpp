// SPDX-License-Identifier: MIT
// weft_bad_comparators: issue 40's bar "every algorithm with a bad comparator terminates
// within 10x of its time with a valid one, and leaves a permutation where it rearranges".
// Every comparator-taking algorithm, under weft::seq and weft::par, on 100,003 random strings
// (keys with duplicates), once with `<` and once with each of `<=`, random answers, always
// true and a comparator that throws at its n-th call; prints the time ratio bad / valid and
// PASS or FAIL (over 10x, or elements lost). The correctness half is also a test
// (tests/algo/comparator_safety_test.cpp); this program adds the times.
//   weft_bad_comparators [n] [threads]   (defaults: 100003 strings, 2 threads)
#include <weft/weft.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace {

enum class kind { valid, le, random, always_true, throws };
constexpr kind bad_kinds[] = {kind::le, kind::random, kind::always_true, kind::throws};
const char* name(kind k) {
  switch (k) {
    case kind::valid: return "<";
    case kind::le: return "<=";
    case kind::random: return "random";
    case kind::always_true: return "true";
    case kind::throws: return "throws";
  }
  return "?";
}

struct thrown {};

// One comparator type for every kind: each algorithm is compiled once per policy.
struct comparator {
  kind k;
  std::atomic<std::uint64_t>* calls;
  std::uint64_t throw_at;
  bool operator()(const std::string& a, const std::string& b) const {
    const std::uint64_t c = calls->fetch_add(1, std::memory_order_relaxed);
    switch (k) {
      case kind::valid: return a < b;
      case kind::le: return a <= b;
      case kind::random: {
        std::uint64_t x = c * 0x9E3779B97F4A7C15u;  // splitmix64's finaliser
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
        return ((x ^ (x >> 31)) & 1) != 0;
      }
      case kind::always_true: return true;
      case kind::throws:
        if (c == throw_at) throw thrown{};
        return a < b;
    }
    return false;
  }
};

using vec = std::vector<std::string>;

struct algorithm {
  const char* name;
  bool rearranges;     // checked for a permutation of its input afterwards
  bool sorted_halves;  // its input is two halves sorted by `<`
};

constexpr algorithm algorithms[] = {
    {"sort", true, false},           {"stable_sort", true, false},
    {"partial_sort", true, false},   {"nth_element", true, false},
    {"inplace_merge", true, true},   {"merge", false, true},
    {"set_union", false, true},      {"set_intersection", false, true},
    {"set_difference", false, true}, {"set_symmetric_difference", false, true},
    {"includes", false, true},       {"partial_sort_copy", false, false},
    {"min_element", false, false},   {"max_element", false, false},
    {"minmax_element", false, false}, {"is_sorted_until", false, false},
    {"iter.min_by", false, false},   {"iter.max_by", false, false},
};

// Runs algorithms[id] on v (out: room for any output) with comp under policy p.
template <class P>
void run(std::size_t id, P p, vec& v, vec& out, const comparator& comp) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  const auto b = v.begin(), e = v.end();
  const auto o = out.begin();
  switch (id) {
    case 0: weft::sort(p, b, e, comp); break;
    case 1: weft::stable_sort(p, b, e, comp); break;
    case 2: weft::partial_sort(p, b, mid, e, comp); break;
    case 3: weft::nth_element(p, b, mid, e, comp); break;
    case 4: weft::inplace_merge(p, b, mid, e, comp); break;
    case 5: weft::merge(p, b, mid, mid, e, o, comp); break;
    case 6: weft::set_union(p, b, mid, mid, e, o, comp); break;
    case 7: weft::set_intersection(p, b, mid, mid, e, o, comp); break;
    case 8: weft::set_difference(p, b, mid, mid, e, o, comp); break;
    case 9: weft::set_symmetric_difference(p, b, mid, mid, e, o, comp); break;
    case 10: (void)weft::includes(p, b, mid, mid, e, comp); break;
    case 11: weft::partial_sort_copy(p, b, e, o, o + (e - mid), comp); break;
    case 12: (void)weft::min_element(p, b, e, comp); break;
    case 13: (void)weft::max_element(p, b, e, comp); break;
    case 14: (void)weft::minmax_element(p, b, e, comp); break;
    case 15: (void)weft::is_sorted_until(p, b, e, comp); break;
    case 16: (void)weft::iter(v).min_by(comp); break;
    case 17: (void)weft::iter(v).max_by(comp); break;
    default: break;
  }
}

// Seconds of one call (the best of `reps`), and whether every call left a permutation.
struct timing {
  double seconds;
  bool permutation;
};

template <class P>
timing measure(std::size_t id, P p, const vec& in, const vec& sorted_in, kind k, int reps) {
  timing t{1e30, true};
  std::atomic<std::uint64_t> calls{0};
  for (int r = 0; r < reps; ++r) {
    vec v = in;
    if (algorithms[id].sorted_halves) {
      const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
      std::sort(v.begin(), mid);
      std::sort(mid, v.end());
    }
    vec out(v.size());
    calls.store(0);
    const comparator comp{k, &calls, v.size() * 3};
    const auto t0 = std::chrono::steady_clock::now();
    try {
      run(id, p, v, out, comp);
    } catch (const thrown&) {
    } catch (const weft::invalid_comparator&) {
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    t.seconds = std::min(t.seconds, took.count());
    if (algorithms[id].rearranges) {
      std::sort(v.begin(), v.end());
      t.permutation = t.permutation && v == sorted_in;
    }
  }
  return t;
}

template <class P>
int report(const char* policy, P p, const vec& in, const vec& sorted_in, int reps) {
  int failures = 0;
  for (std::size_t id = 0; id < std::size(algorithms); ++id) {
    const timing good = measure(id, p, in, sorted_in, kind::valid, reps);
    std::printf("%-4s %-25s %9.3f ms", policy, algorithms[id].name, good.seconds * 1e3);
    for (const kind k : bad_kinds) {
      const timing bad = measure(id, p, in, sorted_in, k, reps);
      // Below 1 ms a ratio measures the clock, not the algorithm.
      const double ratio = bad.seconds / std::max(good.seconds, 1e-3);
      const bool pass = ratio <= 10.0 && bad.permutation;
      failures += !pass;
      std::printf("  %s %6.2fx %s", name(k), ratio, pass ? "PASS" : bad.permutation ? "FAIL" : "LOST");
    }
    std::printf("\n");
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100003;
  const std::size_t threads = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : std::size_t{2};
  std::mt19937_64 rng(40);
  vec in(n);
  for (auto& s : in) s = std::to_string(rng() % (n / 2 + 1)) + std::string(20, 'z');
  vec sorted_in = in;
  std::sort(sorted_in.begin(), sorted_in.end());
  std::printf("%zu strings, %zu threads; time with `<`, then bad / valid for each bad comparator "
              "(PASS: at most 10x and a permutation left)\n", n, threads);
  weft::thread_pool pool({.num_threads = threads});
  const int failures = pool.install([&] {
    return report("seq", weft::seq, in, sorted_in, 3) + report("par", weft::par, in, sorted_in, 3);
  });
  std::printf("%d FAIL\n", failures);
  return failures == 0 ? 0 : 1;
}
