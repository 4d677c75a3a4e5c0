// SPDX-License-Identifier: MIT
// Element-wise writes and uninitialized memory (algorithm/transform.hpp, algorithm/memory.hpp).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <execution>
#include <numeric>
#include <thread>
#include <utility>
#include <vector>

#include "weft/detail/config.hpp"
#include "algo_support.hpp"

using namespace weft_algo;

namespace {

template <class T>
T plus_one(const T& x) {
  if constexpr (std::is_same_v<T, std::string>)
    return x + "+";
  else
    return x + 1;
}

template <class T>
void check_writes(std::size_t n, std::uint64_t salt) {
  const auto v = random_input<T>(n, salt, 20);
  const auto b = v.begin(), e = v.end();
  const auto small = [](const T& x) { return key_of(x) % 3 == 0; };
  const T seven = make<T>(7), eight = make<T>(8);
  const auto mid = static_cast<std::ptrdiff_t>(n / 3);
  for_policies<T>([&](auto pol) {
    std::vector<T> got(n), want(n);
    REQUIRE(weft::copy(pol, b, e, got.begin()) == got.end());
    REQUIRE(got == v);
    REQUIRE(weft::copy_n(pol, b, static_cast<int>(n / 2), want.begin()) == want.begin() + static_cast<std::ptrdiff_t>(n / 2));
    REQUIRE(std::equal(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(n / 2), b));

    weft::transform(pol, b, e, got.begin(), plus_one<T>);
    std::transform(b, e, want.begin(), plus_one<T>);
    REQUIRE(got == want);
    weft::transform(pol, got.begin(), got.end(), got.begin(), plus_one<T>);  // in place
    std::transform(want.begin(), want.end(), want.begin(), plus_one<T>);
    REQUIRE(got == want);
    const auto pick = [](const T& x, const T& y) { return key_of(x) < key_of(y) ? x : y; };
    weft::transform(pol, b, e, want.begin(), got.begin(), pick);
    std::vector<T> want2(n);
    std::transform(b, e, want.begin(), want2.begin(), pick);
    REQUIRE(got == want2);

    weft::fill(pol, got.begin(), got.end(), seven);
    REQUIRE(std::count(got.begin(), got.end(), seven) == static_cast<std::ptrdiff_t>(n));
    REQUIRE(weft::fill_n(pol, got.begin(), static_cast<long>(n / 2), eight) == got.begin() + static_cast<std::ptrdiff_t>(n / 2));
    REQUIRE(std::count(got.begin(), got.end(), eight) == static_cast<std::ptrdiff_t>(n / 2));
    REQUIRE(weft::fill_n(pol, got.begin(), -3, eight) == got.begin());

    std::atomic<int> made{0};
    weft::generate(pol, got.begin(), got.end(), [&] { made.fetch_add(1, std::memory_order_relaxed); return seven; });
    REQUIRE(made.load() == static_cast<int>(n));
    REQUIRE(weft::generate_n(pol, got.begin(), 0, [&] { return eight; }) == got.begin());

    got = v;
    want = v;
    weft::replace(pol, got.begin(), got.end(), seven, eight);
    std::replace(want.begin(), want.end(), seven, eight);
    REQUIRE(got == want);
    weft::replace_if(pol, got.begin(), got.end(), small, seven);
    std::replace_if(want.begin(), want.end(), small, seven);
    REQUIRE(got == want);
    weft::replace_copy(pol, b, e, got.begin(), seven, eight);
    std::replace_copy(b, e, want.begin(), seven, eight);
    REQUIRE(got == want);
    weft::replace_copy_if(pol, b, e, got.begin(), small, eight);
    std::replace_copy_if(b, e, want.begin(), small, eight);
    REQUIRE(got == want);

    got = v;
    want = v;
    weft::reverse(pol, got.begin(), got.end());
    std::reverse(want.begin(), want.end());
    REQUIRE(got == want);
    weft::reverse_copy(pol, b, e, got.begin());
    std::reverse_copy(b, e, want.begin());
    REQUIRE(got == want);
    got = v;
    want = v;
    const auto at = weft::rotate(pol, got.begin(), got.begin() + mid, got.end());
    REQUIRE(at - got.begin() == std::rotate(want.begin(), want.begin() + mid, want.end()) - want.begin());
    REQUIRE(got == want);
    weft::rotate_copy(pol, b, b + mid, e, got.begin());
    std::rotate_copy(b, b + mid, e, want.begin());
    REQUIRE(got == want);
    std::vector<T> other(n, seven);
    got = v;
    REQUIRE(weft::swap_ranges(pol, got.begin(), got.end(), other.begin()) == other.end());
    REQUIRE(other == v);
    REQUIRE(std::count(got.begin(), got.end(), seven) == static_cast<std::ptrdiff_t>(n));
  });
}

// Counts live objects; its copy constructor throws on the chosen call.
struct counted {
  static inline std::atomic<long> live{0};
  static inline std::atomic<long> copies{0};
  static inline long throw_at = -1;
  int v = 0;
  counted() { ++live; }
  explicit counted(int x) : v(x) { ++live; }
  counted(const counted& o) : v(o.v) {
    if (copies.fetch_add(1) == throw_at) throw weft_test::test_error{0};
    ++live;
  }
  counted(counted&& o) noexcept : v(o.v) { ++live; }
  counted& operator=(const counted&) = default;
  ~counted() { --live; }
};

}  // namespace

TEST_CASE("element-wise writes equal std:: at every length", "[algo]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    check_writes<int>(n, 11);
    check_writes<std::string>(n, 12);
  }
}

TEST_CASE("move-only elements: move, swap_ranges, reverse, rotate", "[algo]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    auto a = random_input<move_only>(n, 13);
    auto want = clone(a);
    weft::reverse(weft::par, a.begin(), a.end());
    std::reverse(want.begin(), want.end());
    REQUIRE(a == want);
    const auto mid = static_cast<std::ptrdiff_t>(n / 4);
    weft::rotate(weft::par, a.begin(), a.begin() + mid, a.end());
    std::rotate(want.begin(), want.begin() + mid, want.end());
    REQUIRE(a == want);
    std::vector<move_only> moved(n);
    weft::move(weft::par, a.begin(), a.end(), moved.begin());
    REQUIRE(moved == want);
    weft::swap_ranges(weft::par, moved.begin(), moved.end(), a.begin());
    REQUIRE(a == want);
  }
}

TEST_CASE("uninitialized algorithms construct every object, destroy undoes them", "[algo]") {
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    const auto src = random_input<std::string>(n, 14);
    std::allocator<std::string> alloc;
    std::string* p = alloc.allocate(n + 1);
    REQUIRE(weft::uninitialized_copy(weft::par, src.begin(), src.end(), p) == p + n);
    REQUIRE(std::equal(src.begin(), src.end(), p));
    weft::destroy(weft::par, p, p + n);
    weft::uninitialized_fill(weft::par, p, p + n, std::string("fill"));
    REQUIRE(std::all_of(p, p + n, [](const std::string& s) { return s == "fill"; }));
    REQUIRE(weft::destroy_n(weft::par, p, n) == p + n);
    weft::uninitialized_value_construct(weft::par, p, p + n);
    REQUIRE(std::all_of(p, p + n, [](const std::string& s) { return s.empty(); }));
    weft::destroy(weft::par, p, p + n);
    REQUIRE(weft::uninitialized_default_construct_n(weft::par, p, n) == p + n);
    weft::destroy(weft::par, p, p + n);
    auto movable = random_input<move_only>(n, 15);
    std::allocator<move_only> malloc_;
    move_only* q = malloc_.allocate(n + 1);
    REQUIRE(weft::uninitialized_move_n(weft::par, movable.begin(), n, q).second == q + n);
    REQUIRE(std::equal(q, q + n, random_input<move_only>(n, 15).begin()));
    weft::destroy(weft::par, q, q + n);

    // The other halves of each pair: _n forms of copy, fill and value-construct, and the
    // iterator-pair forms of move and default-construct.
    REQUIRE(weft::uninitialized_copy_n(weft::par, src.begin(), n, p) == p + n);
    REQUIRE(std::equal(src.begin(), src.end(), p));
    weft::destroy(weft::par, p, p + n);
    REQUIRE(weft::uninitialized_fill_n(weft::par, p, n, std::string("filled, n")) == p + n);
    REQUIRE(std::all_of(p, p + n, [](const std::string& s) { return s == "filled, n"; }));
    weft::destroy(weft::par, p, p + n);
    REQUIRE(weft::uninitialized_value_construct_n(weft::par, p, n) == p + n);
    REQUIRE(std::all_of(p, p + n, [](const std::string& s) { return s.empty(); }));
    weft::destroy(weft::par, p, p + n);
    weft::uninitialized_default_construct(weft::par, p, p + n);
    weft::destroy(weft::par, p, p + n);
    auto movable2 = random_input<move_only>(n, 16);
    REQUIRE(weft::uninitialized_move(weft::par, movable2.begin(), movable2.end(), q) == q + n);
    REQUIRE(std::equal(q, q + n, random_input<move_only>(n, 16).begin()));
    REQUIRE(std::all_of(movable2.begin(), movable2.end(), [](const move_only& m) { return !m.p; }));
    weft::destroy(weft::par, q, q + n);
    // value-construct zeroes trivial types; default-construct leaves them as they were.
    std::allocator<long> lalloc;
    long* z = lalloc.allocate(n + 1);
    std::fill(z, z + n, 7L);
    weft::uninitialized_value_construct(weft::par, z, z + n);
    REQUIRE(std::all_of(z, z + n, [](long x) { return x == 0; }));
    std::fill(z, z + n, 7L);
    REQUIRE(weft::uninitialized_value_construct_n(weft::par, z, n) == z + n);
    REQUIRE(std::all_of(z, z + n, [](long x) { return x == 0; }));
    lalloc.deallocate(z, n + 1);
    malloc_.deallocate(q, n + 1);
    alloc.deallocate(p, n + 1);
  }
}

TEST_CASE("uninitialized_copy: a throwing constructor leaves nothing constructed", "[algo]") {
  std::vector<counted> src(big);
  const long before = counted::live.load();
  std::allocator<counted> alloc;
  counted* p = alloc.allocate(src.size());
  for (const long at : {0L, 4321L, static_cast<long>(big) - 1}) {
    CAPTURE(at);
    counted::copies = 0;
    counted::throw_at = at;
    REQUIRE_THROWS_AS(weft::uninitialized_copy(weft::par, src.begin(), src.end(), p),
                      weft_test::test_error);
    REQUIRE(counted::live.load() == before);
  }
  counted::throw_at = -1;
  weft::uninitialized_copy(weft::par, src.begin(), src.end(), p);
  REQUIRE(counted::live.load() == before + static_cast<long>(big));
  weft::destroy(weft::par, p, p + src.size());
  REQUIRE(counted::live.load() == before);
  alloc.deallocate(p, src.size());
}

TEST_CASE("transform: an exception from op reaches the caller", "[algo]") {
  const auto v = random_input<int>(big, 16);
  std::vector<int> out(v.size());
  for (const std::size_t at : {std::size_t{0}, big - 1}) {
    std::atomic<std::size_t> calls{0};
    const thrower t{&calls, at};
    REQUIRE_THROWS_AS(weft::transform(weft::par, v.begin(), v.end(), out.begin(), [&](int x) {
                        t.tick();
                        return x;
                      }),
                      weft_test::test_error);
  }
  weft::transform(weft::par, v.begin(), v.end(), out.begin(), [](int x) { return -x; });
  REQUIRE(out[big - 1] == -v[big - 1]);
}

// std::vector<bool> packs 64 elements per word: parallel writes through its mutable
// iterators would race (under TSan this test reports it), so weft runs those calls
// sequentially. Reads run in parallel, through its const iterators and, in the algorithms
// that only read (searches, counts, reductions), its mutable ones too. Its proxy references
// must also pass the output check (std::indirectly_writable rejects them in libstdc++ 12).
TEST_CASE("std::vector<bool>: writes are correct and race-free, reads run in parallel",
          "[algo]") {
  using weft::execution::parallel_policy;
  static_assert(!weft::detail::algo::runs_parallel<parallel_policy, std::vector<bool>::iterator>);
  static_assert(
      weft::detail::algo::runs_parallel<parallel_policy, std::vector<bool>::const_iterator>);
  static_assert(weft::detail::algo::reads_parallel<parallel_policy, std::vector<bool>::iterator>);
  for (const std::size_t n : lengths) {
    CAPTURE(n);
    const auto v = random_input<int>(n, 17);
    std::vector<bool> flags(n), want(n);
    const auto third = [](int x) { return x % 3 == 0; };
    weft::transform(weft::par, v.begin(), v.end(), flags.begin(), third);
    std::transform(v.begin(), v.end(), want.begin(), third);
    REQUIRE(flags == want);
    weft::for_each(weft::par, flags.begin(), flags.end(), [](auto&& bit) { bit = !bit; });
    want.flip();
    REQUIRE(flags == want);
    std::vector<bool> copied(n);
    weft::copy(weft::par, flags.begin(), flags.end(), copied.begin());
    REQUIRE(copied == want);
    weft::sort(weft::par, copied.begin(), copied.end());
    std::sort(want.begin(), want.end());
    REQUIRE(copied == want);
    weft::fill(weft::par, copied.begin(), copied.end(), true);
    REQUIRE(weft::count(weft::par, std::as_const(copied).begin(), std::as_const(copied).end(),
                        true) == static_cast<std::ptrdiff_t>(n));
    REQUIRE(weft::iter(std::as_const(flags)).filter([](bool b) { return b; }).count() ==
            static_cast<std::size_t>(std::count(flags.begin(), flags.end(), true)));
    // The read-only algorithms over mutable iterators (in parallel: reads_parallel).
    const auto b = flags.begin(), e = flags.end();
    REQUIRE(weft::count(weft::par, b, e, true) == std::count(b, e, true));
    REQUIRE(weft::find(weft::par, b, e, false) == std::find(b, e, false));
    REQUIRE(weft::adjacent_find(weft::par, b, e) == std::adjacent_find(b, e));
    REQUIRE(weft::equal(weft::par, b, e, want.begin()) == std::equal(b, e, want.begin()));
    REQUIRE(weft::mismatch(weft::par, b, e, copied.begin()) == std::mismatch(b, e, copied.begin()));
    REQUIRE(weft::min_element(weft::par, b, e) == std::min_element(b, e));
    REQUIRE(weft::is_sorted_until(weft::par, b, e) == std::is_sorted_until(b, e));
    REQUIRE(weft::transform_reduce(weft::par, b, e, std::size_t{0}, std::plus<>{},
                                   [](bool bit) { return std::size_t{bit}; }) ==
            static_cast<std::size_t>(std::count(b, e, true)));
  }
  // A callable slow enough that the engine would split 100,003 elements over the pool: every
  // call must still come from the calling thread.
  weft::thread_pool pool({.num_threads = 2});
  pool.install([] {
    const auto v = random_input<int>(100'003, 18);
    std::vector<bool> flags(v.size());
    const auto caller = std::this_thread::get_id();
    std::atomic<std::size_t> elsewhere{0};
    weft::transform(weft::par, v.begin(), v.end(), flags.begin(), [&](int x) {
      if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1, std::memory_order_relaxed);
      auto h = static_cast<std::uint64_t>(x);
      for (int round = 0; round < 100; ++round) h = h * 6364136223846793005u + 1;
      return (h >> 63) != 0;
    });
    REQUIRE(elsewhere.load() == 0);
  });
}

namespace {

struct pair16 {
  std::int64_t a, b;
  bool operator==(const pair16&) const = default;
};

template <class T>
T value_at(std::size_t i) {
  if constexpr (std::is_same_v<T, pair16>)
    return {static_cast<std::int64_t>(i), -static_cast<std::int64_t>(i)};
  else
    return static_cast<T>(i % 100000) + T(1);
}

// stream_fill at every offset within a line and lengths around whole lines: the output equals
// what plain stores write, the values around it are untouched, and produce is asked for
// every position exactly once, in order.
template <class T>
void check_stream_fill() {
  static_assert(weft::detail::algo::line_fillable_v<T>);
  constexpr std::size_t per_line = weft::detail::algo::stream_line_bytes / sizeof(T);
  const T guard = value_at<T>(99999);
  for (std::size_t skip = 0; skip < 2 * per_line; ++skip) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, per_line - 1, per_line,
                                per_line + 1, 3 * per_line + 2, 40 * per_line + 5}) {
      CAPTURE(skip, n);
      std::vector<T> out(n + 3 * per_line, guard);
      std::size_t next = 0;
      bool in_order = true;
      weft::detail::algo::stream_fill(out.data() + skip, n, [&](T* d, std::size_t from,
                                                                std::size_t to) {
        in_order = in_order && from == next && to > from && to <= n;
        next = to;
        for (std::size_t i = from; i < to; ++i) d[i - from] = value_at<T>(i);
      });
      REQUIRE(in_order);
      REQUIRE(next == n);
      for (std::size_t i = 0; i < out.size(); ++i) {
        const bool inside = i >= skip && i < skip + n;
        if (!(out[i] == (inside ? value_at<T>(i - skip) : guard))) FAIL("position " << i);
      }
    }
  }
}

// The algorithms that stream an output of stream_min_bytes or more (the uninitialized ones
// included), at several offsets of the output within a line, against std::.
template <class T>
void check_streamed_writes(std::size_t skip) {
  CAPTURE(skip);
  const std::size_t n = weft::detail::algo::stream_min_bytes / sizeof(T) + 37;
  std::vector<T> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = value_at<T>(i);
  const auto b = in.begin(), e = in.end();
  std::vector<T> got(n + 16, value_at<T>(7)), want = got;
  const auto g = got.begin() + static_cast<std::ptrdiff_t>(skip);
  const auto w = want.begin() + static_cast<std::ptrdiff_t>(skip);
  const auto twice = [](const T& x) {
    if constexpr (std::is_same_v<T, pair16>)
      return pair16{x.a * 2, x.b};
    else
      return static_cast<T>(x * 2);
  };
  const auto pick = [](const T& x, const T& y) { return x == y ? x : y; };
  const auto odd = [](const T& x) {
    if constexpr (std::is_same_v<T, pair16>)
      return x.a % 2 != 0;
    else
      return static_cast<std::int64_t>(x) % 2 != 0;
  };
  REQUIRE(weft::copy(weft::par, b, e, g) == g + static_cast<std::ptrdiff_t>(n));
  std::copy(b, e, w);
  REQUIRE((got == want));  // no decomposition: printing 2 M values would take minutes
  weft::transform(weft::par, b, e, g, twice);
  std::transform(b, e, w, twice);
  REQUIRE((got == want));
  weft::transform(weft::par, b, e, b, g, pick);
  std::transform(b, e, b, w, pick);
  REQUIRE((got == want));
  weft::fill(weft::par, g, g + static_cast<std::ptrdiff_t>(n), value_at<T>(5));
  std::fill(w, w + static_cast<std::ptrdiff_t>(n), value_at<T>(5));
  REQUIRE((got == want));
  weft::move(weft::par, b, e, g);
  std::move(b, e, w);
  REQUIRE((got == want));
  weft::generate(weft::par, g, g + static_cast<std::ptrdiff_t>(n), [] { return value_at<T>(3); });
  std::generate(w, w + static_cast<std::ptrdiff_t>(n), [] { return value_at<T>(3); });
  REQUIRE((got == want));
  weft::replace_copy_if(weft::par, b, e, g, odd, value_at<T>(4));
  std::replace_copy_if(b, e, w, odd, value_at<T>(4));
  REQUIRE((got == want));
  weft::reverse_copy(weft::par, b, e, g);
  std::reverse_copy(b, e, w);
  REQUIRE((got == want));
  // The uninitialized algorithms on trivial types build over the (trivial) objects there.
  weft::uninitialized_copy(weft::par, b, e, g);
  std::copy(b, e, w);
  REQUIRE((got == want));
  weft::uninitialized_fill(weft::par, g, g + static_cast<std::ptrdiff_t>(n), value_at<T>(6));
  std::fill(w, w + static_cast<std::ptrdiff_t>(n), value_at<T>(6));
  REQUIRE((got == want));
  weft::uninitialized_value_construct(weft::par, g, g + static_cast<std::ptrdiff_t>(n));
  std::fill(w, w + static_cast<std::ptrdiff_t>(n), T{});
  REQUIRE((got == want));
  weft::uninitialized_move(weft::par, b, e, g);
  std::copy(b, e, w);
  REQUIRE((got == want));
}

}  // namespace

TEST_CASE("stream_fill writes every position once, at every offset within a line", "[algo]") {
  check_stream_fill<std::int32_t>();
  check_stream_fill<double>();
  check_stream_fill<pair16>();
}

// Outputs of 16 MiB and more are written with streaming stores (for_output_blocks); the
// head, the streamed lines and the tail of every block must not change a single value.
TEST_CASE("element-wise writes past the streaming threshold equal std::", "[algo]") {
  {
    const weft::detail::algo::force_stores streamed(true);  // whatever the records learned
    for (const std::size_t skip : {0, 1, 3}) {
      // Under TSan one misaligned pass per type: the races it looks for do not depend on the
      // output's alignment, and each pass over 16 MiB took ~4 s there (40 s for all nine).
      if (WEFT_TSAN && skip != 1) continue;
      check_streamed_writes<double>(skip);
      check_streamed_writes<std::int32_t>(skip);
      check_streamed_writes<pair16>(skip);
    }
  }
  // The same outputs through plain stores, a call site's other choice (learned_choice).
  if (!WEFT_TSAN) {
    const weft::detail::algo::force_stores plain(false);
    check_streamed_writes<double>(1);
  }
}

// Each call site learns whether streaming pays from its own large calls: the first four
// alternate the two kinds of store, later ones take the kind that cost less per byte, and
// every 16th call tries the other kind again. A kind's cost is the lowest of its last four
// calls: slow calls do not decide until four in a row say so.
TEST_CASE("a call site streams its large outputs where that was faster", "[algo]") {
  using namespace std::chrono_literals;
  namespace algo = weft::detail::algo;
  constexpr std::size_t mib = std::size_t{1} << 20;
  const auto per_kib = [](std::chrono::nanoseconds t, std::size_t bytes) {
    return static_cast<float>(t.count()) * 1024.0f / static_cast<float>(bytes);
  };
  weft::detail::learned_choice r;
  CHECK(r.cost_per_kib(true) == 0.0f);
  CHECK(r.choose());  // call 0
  r.record(true, 32 * mib, 4ms);
  CHECK_FALSE(r.choose());  // call 1
  r.record(false, 16 * mib, 1ms);  // half the bytes in a quarter of the time
  CHECK(r.choose());  // call 2: streamed again, slowed by something else...
  r.record(true, 32 * mib, 40ms);
  CHECK(r.cost_per_kib(true) == Approx(per_kib(4ms, 32 * mib)));  // ...which does not count
  CHECK_FALSE(r.choose());  // call 3
  r.record(false, 16 * mib, 1ms);
  CHECK(r.cost_per_kib(false) == Approx(per_kib(1ms, 16 * mib)));
  for (int k = 4; k < 16; ++k) CHECK_FALSE(r.choose());  // plain is cheaper
  CHECK(r.choose());  // call 16 tries streaming again...
  r.record(true, 16 * mib, 500us);  // ...which is now cheaper
  for (int k = 17; k < 32; ++k) CHECK(r.choose());
  CHECK_FALSE(r.choose());  // call 32 tries plain stores
  CHECK(r.calls.load() == 33);
  // Three slow calls of the kind in use leave its cost; the fourth in a row is a lasting
  // change, and the cost is theirs from then on.
  for (int i = 0; i < 3; ++i) r.record(true, 16 * mib, 1500us);
  CHECK(r.cost_per_kib(true) == Approx(per_kib(500us, 16 * mib)));
  r.record(true, 16 * mib, 1500us);
  CHECK(r.cost_per_kib(true) == Approx(per_kib(1500us, 16 * mib)));
  CHECK_FALSE(r.choose());  // call 33: plain (1 ms / 16 MiB) is the cheaper kind now
  r.record(false, 16 * mib, 2ms);  // a slow plain call does not hand calls back at once
  CHECK_FALSE(r.choose());

  // A call records the kind it ran; a thread that forces one records nothing.
  weft::detail::learned_choice fresh;
  std::vector<bool> kinds;
  const auto note = [&](bool stream) { kinds.push_back(stream); };
  algo::run_choosing_stores(fresh, 32 * mib, note);
  CHECK(fresh.cost_per_kib(true) > 0.0f);
  algo::run_choosing_stores(fresh, 32 * mib, note);
  CHECK(fresh.cost_per_kib(false) > 0.0f);
  CHECK(kinds == std::vector<bool>{true, false});
  {
    const algo::force_stores plain(false);
    algo::run_choosing_stores(fresh, 32 * mib, note);
    algo::run_choosing_stores(fresh, 32 * mib, note);
  }
  CHECK(kinds == std::vector<bool>{true, false, false, false});
  CHECK(fresh.calls.load() == 2);

  // Pools of 1, 2, 3-4, 5-8, ... threads keep records of their own.
  const std::size_t threads[] = {1, 2, 3, 4, 5, 8, 9, 16, 17, 64, 65, 100000};
  const std::size_t classes[] = {0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 7};
  for (std::size_t i = 0; i < std::size(threads); ++i)
    CHECK(weft::detail::pool_size_class(threads[i]) == classes[i]);
}
