// SPDX-License-Identifier: MIT
#include <execution>
#include <functional>
#include <list>
#include <numeric>
#include <thread>

#include "algo_support.hpp"
#include "weft/kernels/scan.hpp"

using namespace weft_algo;

namespace {

// Non-commutative and associative: a misordered combination shows up as a wrong string.
const auto concat = [](std::string a, const std::string& b) { return a + b; };

// Runs every scan overload with `policy` on `in` and compares it with the sequential std::
// algorithm, both into a separate output and in place.
template <class Policy, class T, class Op>
void check_scans(const Policy& policy, const std::vector<T>& in, const T& init, Op op) {
  const auto n = in.size();
  std::vector<T> want(n), got(n);
  const auto unary = [](const T& x) { return x; };

  std::inclusive_scan(in.begin(), in.end(), want.begin(), op);
  REQUIRE(weft::inclusive_scan(policy, in.begin(), in.end(), got.begin(), op) == got.end());
  REQUIRE(got == want);
  auto inplace = in;
  weft::inclusive_scan(policy, inplace.begin(), inplace.end(), inplace.begin(), op);
  REQUIRE(inplace == want);

  std::inclusive_scan(in.begin(), in.end(), want.begin(), op, init);
  weft::inclusive_scan(policy, in.begin(), in.end(), got.begin(), op, init);
  REQUIRE(got == want);

  std::exclusive_scan(in.begin(), in.end(), want.begin(), init, op);
  REQUIRE(weft::exclusive_scan(policy, in.begin(), in.end(), got.begin(), init, op) == got.end());
  REQUIRE(got == want);
  inplace = in;
  weft::exclusive_scan(policy, inplace.begin(), inplace.end(), inplace.begin(), init, op);
  REQUIRE(inplace == want);

  std::transform_inclusive_scan(in.begin(), in.end(), want.begin(), op, unary);
  weft::transform_inclusive_scan(policy, in.begin(), in.end(), got.begin(), op, unary);
  REQUIRE(got == want);
  std::transform_inclusive_scan(in.begin(), in.end(), want.begin(), op, unary, init);
  weft::transform_inclusive_scan(policy, in.begin(), in.end(), got.begin(), op, unary, init);
  REQUIRE(got == want);
  inplace = in;
  weft::transform_inclusive_scan(policy, inplace.begin(), inplace.end(), inplace.begin(), op,
                                 unary, init);
  REQUIRE(inplace == want);

  std::transform_exclusive_scan(in.begin(), in.end(), want.begin(), init, op, unary);
  weft::transform_exclusive_scan(policy, in.begin(), in.end(), got.begin(), init, op, unary);
  REQUIRE(got == want);
}

template <class T, class Op>
void check_all_policies(const std::vector<T>& in, const T& init, Op op) {
  for_policies<T>([&](auto pol) { check_scans(pol, in, init, op); });
}

}  // namespace

TEST_CASE("scans match std:: on int, every overload and policy, in place too", "[algo][scan]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    check_all_policies(random_input<int>(n, 1, 1000), 7, std::plus<>{});  // no overflow
    std::vector<long long> wide(n);
    std::iota(wide.begin(), wide.end(), -3);
    check_scans(weft::par, wide, 5LL, std::plus<>{});
  }
}

TEST_CASE("scans with a non-commutative op (string concatenation) keep the order",
          "[algo][scan]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    // Short strings keep the concatenations of 100003 elements quadratic-free enough.
    std::vector<std::string> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = std::string(1, static_cast<char>('a' + i % 26));
    if (n > 20000) {
      // The running concatenation is O(n^2) bytes: check a suffix-keeping op instead, which is
      // associative, not commutative, and cheap.
      const auto last3 = [](std::string a, const std::string& b) {
        a += b;
        return a.size() > 3 ? a.substr(a.size() - 3) : a;
      };
      check_all_policies(in, std::string("<"), last3);
    } else {
      check_all_policies(in, std::string("<"), concat);
    }
  }
}

TEST_CASE("transform scans apply unary and convert to the accumulator type", "[algo][scan]") {
  const auto in = random_input<int>(big, 3);
  std::vector<long long> want(in.size()), got(in.size());
  const auto sq = [](int x) { return static_cast<long long>(x) * x; };
  std::transform_inclusive_scan(in.begin(), in.end(), want.begin(), std::plus<>{}, sq);
  weft::transform_inclusive_scan(weft::par, in.begin(), in.end(), got.begin(), std::plus<>{}, sq);
  REQUIRE(got == want);
  std::transform_exclusive_scan(in.begin(), in.end(), want.begin(), 1LL, std::plus<>{}, sq);
  weft::transform_exclusive_scan(weft::par, in.begin(), in.end(), got.begin(), 1LL,
                                 std::plus<>{}, sq);
  REQUIRE(got == want);
}

TEST_CASE("scan range overloads and weaker iterators", "[algo][scan]") {
  const auto in = random_input<int>(big, 4, 1000);
  std::vector<int> want(in.size()), got(in.size());
  std::inclusive_scan(in.begin(), in.end(), want.begin());
  REQUIRE(weft::inclusive_scan(in, got) == got.end());
  REQUIRE(got == want);
  std::inclusive_scan(in.begin(), in.end(), want.begin(), [](int a, int b) { return a ^ b; });
  weft::inclusive_scan(in, got, [](int a, int b) { return a ^ b; });
  REQUIRE(got == want);

  std::list<int> l{1, 2, 3, 4};
  std::vector<int> out(4);
  weft::exclusive_scan(weft::par, l.begin(), l.end(), out.begin(), 10);
  REQUIRE(out == std::vector<int>{10, 11, 13, 16});
}

TEST_CASE("scans: an exception from op or unary reaches the caller, the pool stays usable",
          "[algo][scan]") {
  const auto in = random_input<int>(big, 5);
  std::vector<long long> out(in.size());
  // Every call position must be reachable at one thread, where each scan calls op (or unary)
  // exactly in.size() times.
  for (const std::size_t at : {std::size_t{0}, std::size_t{777}, in.size() * 3 / 5,
                               in.size() - 1}) {
    CAPTURE(at);
    std::atomic<std::size_t> calls{0};
    const thrower t{&calls, at};
    const auto op = [&](long long a, long long b) {
      t.tick();
      return a + b;
    };
    REQUIRE_THROWS_AS(weft::inclusive_scan(weft::par, in.begin(), in.end(), out.begin(), op, 0LL),
                      weft_test::test_error);
    calls = 0;
    REQUIRE_THROWS_AS(weft::transform_exclusive_scan(weft::par, in.begin(), in.end(), out.begin(),
                                                     0LL, std::plus<>{},
                                                     [&](int x) {
                                                       t.tick();
                                                       return static_cast<long long>(x);
                                                     }),
                      weft_test::test_error);
  }
  std::vector<long long> want(in.size());
  std::inclusive_scan(in.begin(), in.end(), want.begin(), std::plus<>{}, 0LL);
  weft::inclusive_scan(weft::par, in.begin(), in.end(), out.begin(), std::plus<>{}, 0LL);
  REQUIRE(out == want);
}

namespace {

// A number that is not arithmetic: its scans take the 64 KiB chunks (arithmetic ones take
// 256 KiB, scan.hpp), so a medium input makes many chunks and long look-back chains.
struct boxed {
  std::uint64_t v = 0;
  friend boxed operator+(boxed a, boxed b) { return {a.v + b.v}; }
  bool operator==(const boxed&) const = default;
};

template <class T>
void check_concurrent_scans(std::mt19937_64& rng, std::size_t n) {
  std::vector<T> in(n);
  for (auto& x : in) x = T{rng() % 1000};
  std::vector<T> want(n), a(n), b(n);
  std::inclusive_scan(in.begin(), in.end(), want.begin(), std::plus<>{});
  weft::join(
      [&] { weft::inclusive_scan(weft::par, in.begin(), in.end(), a.begin(), std::plus<>{}); },
      [&] { weft::inclusive_scan(weft::par, in.begin(), in.end(), b.begin(), std::plus<>{}); });
  REQUIRE(a == want);
  REQUIRE(b == want);
}

}  // namespace

// The look-back protocol under contention: many scans of many sizes, some from inside pool
// tasks (two scans at once share the pool), some whose op itself runs weft work.
TEST_CASE("scan protocol stress: small and medium scans, nested and concurrent", "[algo][scan]") {
  auto rng = weft_test::seeded_rng(99);
  const std::uint64_t rounds = weft_test::stress_iters(60);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    const std::size_t n = rng() % (r % 4 == 0 ? 300000 : 5000);
    if (r % 2 == 0)
      check_concurrent_scans<std::uint64_t>(rng, n);
    else
      check_concurrent_scans<boxed>(rng, n);
  }
  std::vector<std::uint64_t> in(200000, 1), out(in.size());
  weft::transform_inclusive_scan(weft::par, in.begin(), in.end(), out.begin(), std::plus<>{},
                                 [](std::uint64_t x) {
                                   if (x == 1 && weft::thread_index().value_or(0) % 2 == 0)
                                     weft::join([] {}, [] {});
                                   return x;
                                 });
  for (std::size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == i + 1);
}

// With more than one thread, an input past the engine's probe budget takes the chunked
// look-back path, which may call op more than n - 1 times (a chunk reduced, then scanned) or
// exactly n - 1 (a claimer alone scans its chunks in one pass). With one thread the engine
// stays sequential: n - 1 calls.
TEST_CASE("scan: a long input takes the parallel look-back path", "[algo][scan]") {
  const std::size_t n = big;
  std::vector<std::uint64_t> in(n, 1), out(n);
  std::atomic<std::size_t> calls{0};
  weft::inclusive_scan(weft::par, in.begin(), in.end(), out.begin(),
                       [&](std::uint64_t a, std::uint64_t b) {
                         calls.fetch_add(1, std::memory_order_relaxed);
                         return a + b;
                       });
  for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == i + 1);
  if (weft::num_threads() == 1) REQUIRE(calls.load() == n - 1);
}

namespace {

// x -> a x + b over uint64 (mod 2^64): composition is associative and not commutative, so a
// prefix combined in the wrong order, or from the wrong chunks, shows.
struct affine {
  std::uint64_t a = 1, b = 0;
  bool operator==(const affine&) const = default;
};
affine then(const affine& f, const affine& g) { return {f.a * g.a, f.b * g.a + g.b}; }

// The first position where the scans differ (the size when they agree): a failure then
// names one element instead of printing 200000.
std::size_t first_difference(const std::vector<affine>& got, const std::vector<affine>& want) {
  return static_cast<std::size_t>(
      std::mismatch(got.begin(), got.end(), want.begin(), want.end()).first - got.begin());
}

std::vector<affine> random_affines(std::size_t n, std::uint64_t seed) {
  auto rng = weft_test::seeded_rng(seed);
  std::vector<affine> v(n);
  for (affine& f : v) f = {rng() | 1, rng()};
  return v;
}

// A chunker for lookback_job (its interface is documented there) over affine maps: counts
// the aggregates that waiters compute themselves, and can hold the scan of one chunk until
// the test releases it.
struct affine_chunker {
  using scratch = int;
  const std::vector<affine>& in;
  std::vector<affine>& out;
  std::size_t hold_lo = static_cast<std::size_t>(-1);
  std::atomic<bool> holding{false}, released{false};
  std::atomic<std::size_t> recomputed{0};

  affine fold(std::size_t lo, std::size_t hi) const {
    affine acc = in[lo];
    for (std::size_t i = lo + 1; i < hi; ++i) acc = then(acc, in[i]);
    return acc;
  }
  affine reduce(std::size_t lo, std::size_t hi, scratch&) const { return fold(lo, hi); }
  affine aggregate(std::size_t lo, std::size_t hi) {
    recomputed.fetch_add(1, std::memory_order_relaxed);
    return fold(lo, hi);
  }
  void scan(std::size_t lo, std::size_t hi, std::optional<affine>& carry, scratch&, bool) {
    if (lo == hold_lo) {
      holding.store(true);
      while (!released.load()) std::this_thread::yield();
    }
    for (std::size_t i = lo; i < hi; ++i) {
      carry = carry ? then(*carry, in[i]) : in[i];
      out[i] = *carry;
    }
  }
  affine combine(const affine& l, const affine& r) const { return then(l, r); }
};

}  // namespace

// White-box, deterministic: the tail of a two-thread job (kernels/lookback.hpp). Claimer
// A takes the head and is held inside its chunk k after publishing chunks 0..k-1; claimer B,
// the second to arrive, opens the tail: it walks back, computing the aggregates of the
// unclaimed chunks head_end-1..k+1 at once and of A's unpublished chunk k after its patience,
// stops at chunk k-1's prefix, scans the whole tail, then takes the head's chunks after k
// (the first of them looks back over chunk k once more). A, released, finishes chunk k.
TEST_CASE("scan look-back: with two threads the second claimer walks back and takes the tail",
          "[algo][scan]") {
  using namespace weft::detail::algo;
  const std::size_t chunk = 64, chunks = 20, n = chunk * chunks - 17, k = 5;
  const std::size_t head_end = chunks - chunks * lookback_tail_fifths / 5;
  REQUIRE(head_end > k + 2);
  const std::vector<affine> in = random_affines(n, 31);
  std::vector<affine> want(n), got(n);
  std::inclusive_scan(in.begin(), in.end(), want.begin(), then);
  affine_chunker ch{in, got};
  ch.hold_lo = k * chunk;
  lookback_job<affine, affine_chunker> job(n, chunk, ch, std::nullopt, {false, true});
  weft::thread_pool pool({.num_threads = 2});
  pool.install([&] { job.fan_out(0); });  // the tail is cut for pools of two
  std::thread a([&] { job.claim(); });
  while (!ch.holding.load()) std::this_thread::yield();
  std::thread b([&] { job.claim(); });
  b.join();
  CHECK(ch.recomputed.load() == head_end - k + 1);
  ch.released.store(true);
  a.join();
  REQUIRE(first_difference(got, want) == n);
  REQUIRE(job.total().has_value());
  REQUIRE(*job.total() == want.back());
}

// The same through the public overloads, in a pool of two whatever WEFT_NUM_THREADS says: the
// tail runs whichever thread arrives first and however far the other one got.
TEST_CASE("scans in a pool of two keep the order of a non-commutative op", "[algo][scan]") {
  const std::size_t n = sanitized ? 30011 : 200003;
  const std::vector<affine> in = random_affines(n, 47);
  std::vector<affine> want(n), got(n);
  weft::thread_pool pool({.num_threads = 2});
  for (int round = 0; round < 8; ++round) {
    CAPTURE(round);
    const affine init{3, 5};
    std::inclusive_scan(in.begin(), in.end(), want.begin(), then, init);
    pool.install(
        [&] { weft::inclusive_scan(weft::par, in.begin(), in.end(), got.begin(), then, init); });
    REQUIRE(first_difference(got, want) == n);
    std::exclusive_scan(in.begin(), in.end(), want.begin(), init, then);
    pool.install(
        [&] { weft::exclusive_scan(weft::par, in.begin(), in.end(), got.begin(), init, then); });
    REQUIRE(first_difference(got, want) == n);
  }
}

namespace {

// Runs the scan kernel with streaming stores forced on (small outputs included), at every
// output offset within a cache line and with lengths that leave a head, whole lines and a
// tail (or only part of a line), against std:: scans.
template <class T, class X>
void check_streaming_kernel(const std::vector<X>& in) {
  static_assert(weft::detail::algo::scan_can_stream<T, typename std::vector<T>::iterator>);
  const weft::detail::algo::force_stores streamed(true);
  const auto plus = std::plus<>{};
  const auto twice = [](X x) { return static_cast<T>(x) * 2; };
  for (std::size_t skip = 0; skip < 16; ++skip) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{17},
                                std::size_t{40}, in.size() - 7}) {
      CAPTURE(skip, n);
      std::vector<T> want(n + 16), got(n + 16, T(-1));
      const auto first = in.begin();
      const auto last = in.begin() + static_cast<std::ptrdiff_t>(n);
      weft::detail::algo::scan_kernel<T, false>(first, last, got.begin() + skip, plus, twice,
                                                std::optional<T>(T(3)));
      std::transform_inclusive_scan(first, last, want.begin() + skip, plus, twice, T(3));
      std::fill(want.begin(), want.begin() + skip, T(-1));
      std::fill(want.begin() + skip + n, want.end(), T(-1));
      REQUIRE(got == want);
      auto id = weft::detail::algo::identity_fn{};
      weft::detail::algo::scan_kernel<T, true>(first, last, got.begin() + skip, plus, id,
                                               std::optional<T>(T(5)));
      std::exclusive_scan(first, last, want.begin() + skip, T(5));
      REQUIRE(got == want);
    }
  }
}

}  // namespace

// Large outputs are written with streaming stores (kernels/stream_store.hpp); their
// head / whole-piece / tail split and their fences must not change a single value.
TEST_CASE("scans with streaming stores equal std:: scans at every alignment", "[algo][scan]") {
  const auto ints = random_input<int>(big, 31, 1000);
  check_streaming_kernel<long long>(ints);
  check_streaming_kernel<int>(ints);
  check_streaming_kernel<unsigned>(ints);
  const auto doubles = random_input<int>(big, 32, 8);  // small integers: exact double sums
  check_streaming_kernel<double>(doubles);
  check_streaming_kernel<float>(doubles);
}

TEST_CASE("scans past the streaming threshold, through the public overloads", "[algo][scan]") {
  const std::size_t n = weft::detail::algo::stream_min_bytes / sizeof(std::int64_t) + 4097;
  std::vector<std::int64_t> in(n), want(n), got(n + 1);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::int64_t>(i % 1009) - 500;
  // Both kinds of store a call site may choose (its learned_choice), whatever it learned.
  for (const bool stream : {true, false}) {
    CAPTURE(stream);
    const weft::detail::algo::force_stores kind(stream);
    std::inclusive_scan(in.begin(), in.end(), want.begin());
    weft::inclusive_scan(weft::par, in.begin(), in.end(), got.begin() + 1);
    REQUIRE(std::equal(want.begin(), want.end(), got.begin() + 1));
    std::exclusive_scan(in.begin(), in.end(), want.begin(), std::int64_t{7});
    weft::exclusive_scan(weft::par, in.begin(), in.end(), got.begin(), std::int64_t{7});
    REQUIRE(std::equal(want.begin(), want.end(), got.begin()));
  }
}
