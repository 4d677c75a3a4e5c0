// SPDX-License-Identifier: MIT
// The fallible pipelines (try_for_each, try_for_each_init, try_reduce, try_fold, while_some)
// and the find_map family, against plain sequential loops: sizes 0, 1, 2, 1,000 and 100,003,
// pools of 1, 2 and 7 threads, the first failure at the start, the middle, the end or nowhere.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <atomic>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <variant>
#include <vector>

namespace {

// An expected-like result (has_value(), operator*, error()), as std::expected or
// tl::expected are; E is the failing item's position. outcome<void, E> carries no value.
template <class Derived, class E>
class failure_part {
 public:
  static Derived failure(E e) {
    Derived r;
    r.ok_ = false;
    r.error_ = std::move(e);
    return r;
  }
  bool has_value() const { return ok_; }
  const E& error() const { return error_; }

 private:
  bool ok_ = true;
  E error_{};
};
template <class T, class E>
class outcome : public failure_part<outcome<T, E>, E> {
 public:
  outcome() = default;
  outcome(T v) : value_(std::move(v)) {}  // NOLINT: implicit, as std::expected's
  const T& operator*() const& { return value_; }
  T&& operator*() && { return std::move(value_); }

 private:
  T value_{};
};
template <class E>
class outcome<void, E> : public failure_part<outcome<void, E>, E> {
 public:
  void operator*() const {}
};

// A result type weft does not know, described by a specialisation of weft::try_traits.
struct status {
  std::size_t code = 0;  // 0: fine; else the failing position + 1
};

}  // namespace

template <>
struct weft::try_traits<status> {
  using output_type = std::monostate;
  static bool is_success(const status& s) { return s.code == 0; }
  static std::monostate output(status&&) { return {}; }
  static status from_output(std::monostate&&) { return {}; }
};

namespace {

constexpr std::size_t nowhere = std::numeric_limits<std::size_t>::max();
constexpr std::size_t sizes[] = {0, 1, 2, 1000, 100003};
constexpr std::size_t pool_sizes[] = {1, 2, 7};

static_assert(weft::try_type<bool> && weft::try_type<std::optional<int>> &&
              weft::try_type<outcome<int, std::size_t>> &&
              weft::try_type<outcome<void, std::size_t>> && weft::try_type<status>);
static_assert(!weft::try_type<int> && !weft::try_type<std::vector<int>>);

// Where the first failure goes for n items: the start, the middle, the end, nowhere.
std::vector<std::size_t> first_failures(std::size_t n) {
  std::vector<std::size_t> at{nowhere};
  for (std::size_t k : {std::size_t{0}, n / 2, n - 1})
    if (n > 0 && (at.size() == 1 || at.back() != k)) at.push_back(k);
  return at;
}
// Position i fails when the first failure is at k: k and every 97th position after it, so
// that later failures are there to be returned by mistake.
bool fails(std::size_t i, std::size_t k) { return k != nowhere && i >= k && (i - k) % 97 == 0; }

template <class Body>
void in_each_pool(Body&& body) {
  for (std::size_t threads : pool_sizes) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] { body(threads); });
  }
}

// How often each item's callable started.
class start_counts {
 public:
  explicit start_counts(std::size_t n) : count_(std::make_unique<std::atomic<int>[]>(n)), n_(n) {}
  void start(std::size_t i) const { count_[i].fetch_add(1, std::memory_order_relaxed); }

  // What an ordered form promises with its first failure at k (nowhere: none): every item
  // before it that reaches the callable (`kept`) started once, it started once, none started
  // twice; and none after it started on a pool of one thread, or, with the default grain
  // (`probes`), when the failure is the first item: the calling thread folds the first items
  // before anything is forked.
  template <class Kept = bool (*)(std::size_t)>
  void check_ordered(std::size_t k, std::size_t threads, bool probes = true,
                     Kept kept = [](std::size_t) { return true; }) const {
    const std::size_t end = k == nowhere ? n_ : k;
    std::size_t wrong_before = 0, twice_after = 0, after = 0;
    for (std::size_t i = 0; i < end; ++i) wrong_before += count_[i].load() != (kept(i) ? 1 : 0);
    for (std::size_t i = end + 1; i < n_; ++i) {
      after += static_cast<std::size_t>(count_[i].load());
      twice_after += count_[i].load() > 1;
    }
    CHECK(wrong_before == 0);
    if (k != nowhere) CHECK(count_[k].load() == 1);
    CHECK(twice_after == 0);
    const bool first_item = k != nowhere && k == first_kept(kept);
    if (k != nowhere && (threads == 1 || (probes && first_item))) CHECK(after == 0);
  }

 private:
  template <class Kept>
  std::size_t first_kept(const Kept& kept) const {
    for (std::size_t i = 0; i < n_; ++i)
      if (kept(i)) return i;
    return nowhere;
  }
  std::unique_ptr<std::atomic<int>[]> count_;
  std::size_t n_;
};

// Item i's result for each try type, and where a failure says it happened (if it can).
template <class R>
R result_at(std::size_t i, bool failed) {
  if constexpr (std::is_same_v<R, bool>)
    return !failed;
  else if constexpr (std::is_same_v<R, std::optional<std::size_t>>)
    return failed ? R{} : R{i};
  else if constexpr (std::is_same_v<R, status>)
    return failed ? status{i + 1} : status{};
  else if constexpr (std::is_same_v<R, outcome<void, std::size_t>>)
    return failed ? R::failure(i) : R{};
  else
    return failed ? R::failure(i) : R{i};
}
template <class R>
std::optional<std::size_t> failure_position(const R& r) {
  if constexpr (std::is_same_v<R, status>)
    return r.code - 1;
  else if constexpr (requires { r.error(); })
    return r.error();
  else
    return std::nullopt;
}

template <class Test>
void for_each_try_type(Test&& test) {
  test.template operator()<bool>();
  test.template operator()<std::optional<std::size_t>>();
  test.template operator()<outcome<std::size_t, std::size_t>>();
  test.template operator()<outcome<void, std::size_t>>();
  test.template operator()<status>();
}

template <class R>
void check_failure(const R& got, std::size_t k) {
  CHECK(weft::try_traits<R>::is_success(got) == (k == nowhere));
  if (k != nowhere) {
    if (auto at = failure_position(got)) CHECK(*at == k);
  }
}

}  // namespace

TEST_CASE("try_for_each returns the first failure in order or success", "[iter][fallible]") {
  in_each_pool([](std::size_t threads) {
    for (std::size_t n : sizes) {
      for (std::size_t k : first_failures(n)) {
        for_each_try_type([&]<class R>() {
          INFO("threads " << threads << " n " << n << " first failure " << k);
          start_counts starts(n);
          const R got = weft::range(std::size_t{0}, n).try_for_each([&](std::size_t i) {
            starts.start(i);
            return result_at<R>(i, fails(i, k));
          });
          check_failure(got, k);
          starts.check_ordered(k, threads);
        });
      }
    }
  });
}

TEST_CASE("try_for_each success is a value-initialized output", "[iter][fallible]") {
  std::vector<int> v(1000, 1);
  CHECK(weft::iter(v).try_for_each([](int) { return true; }));
  const auto opt = weft::iter(v).try_for_each([](int x) { return std::optional<int>(x); });
  REQUIRE(opt.has_value());
  CHECK(*opt == 0);
  const auto exp =
      weft::iter(v).try_for_each([](int x) { return outcome<std::string, int>(std::to_string(x)); });
  REQUIRE(exp.has_value());
  CHECK((*exp).empty());
}

TEST_CASE("try_for_each over an unindexed pipeline and under every grain mode",
          "[iter][fallible]") {
  in_each_pool([](std::size_t threads) {
    const std::size_t n = 100003;
    for (std::size_t k : first_failures(n)) {
      for (int mode = 0; mode < 4; ++mode) {
        INFO("threads " << threads << " first failure " << k << " mode " << mode);
        auto base = weft::range(std::size_t{0}, n);
        auto pipe = mode == 1   ? std::move(base).with_max_len(1000)
                    : mode == 2 ? std::move(base).with_min_len(20000)
                    : mode == 3 ? std::move(base).deterministic()
                                : std::move(base);
        start_counts starts(n);
        // The odd items are dropped (and never reach the callable); failures at even ones.
        const auto even = [](std::size_t i) { return i % 2 == 0; };
        const std::size_t even_k = k == nowhere ? nowhere : k - k % 2;
        const auto got = pipe.filter(even).try_for_each([&](std::size_t i) {
          starts.start(i);
          return result_at<outcome<void, std::size_t>>(i, fails(i, even_k));
        });
        check_failure(got, even_k);
        starts.check_ordered(even_k, threads, mode == 0, even);
      }
    }
  });
}

TEST_CASE("try_for_each_init keeps a state per leaf and stops at the first failure",
          "[iter][fallible]") {
  in_each_pool([](std::size_t threads) {
    for (std::size_t n : sizes) {
      for (std::size_t k : first_failures(n)) {
        INFO("threads " << threads << " n " << n << " first failure " << k);
        start_counts starts(n);
        std::atomic<int> states{0};
        const auto got = weft::range(std::size_t{0}, n).try_for_each_init(
            [&] {
              states.fetch_add(1, std::memory_order_relaxed);
              return std::vector<std::size_t>{};
            },
            [&](std::vector<std::size_t>& seen, std::size_t i) {
              starts.start(i);
              const bool in_order = seen.empty() || seen.back() < i;  // a leaf goes up
              seen.push_back(i);
              return in_order ? result_at<std::optional<std::size_t>>(i, fails(i, k))
                              : std::optional<std::size_t>{};
            });
        check_failure(got, k);
        starts.check_ordered(k, threads);
        CHECK((n == 0) == (states.load() == 0));
        if (threads == 1 && n > 0) CHECK(states.load() == 1);
      }
    }
  });
}

TEST_CASE("try_reduce combines until the first failing item", "[iter][fallible]") {
  in_each_pool([](std::size_t threads) {
    for (std::size_t n : sizes) {
      for (std::size_t k : first_failures(n)) {
        INFO("threads " << threads << " n " << n << " first failure " << k);
        using R = outcome<std::size_t, std::size_t>;
        std::vector<R> items(n);
        std::size_t want = 0;
        for (std::size_t i = 0; i < n; ++i) {
          items[i] = fails(i, k) ? R::failure(i) : R(i * i);
          want += i * i;
        }
        // Borrowed items (references to the vector's), then items the pipeline makes.
        const auto plus = [](std::size_t a, std::size_t b) { return R(a + b); };
        const auto got = weft::iter(items).try_reduce(std::size_t{0}, plus);
        check_failure(got, k);
        if (k == nowhere) CHECK(*got == want);
        start_counts starts(n);
        const auto made = weft::range(std::size_t{0}, n)
                              .map([&](std::size_t i) {
                                starts.start(i);
                                return result_at<std::optional<std::size_t>>(i, fails(i, k));
                              })
                              .try_reduce([] { return std::size_t{0}; },
                                          [](std::size_t a, std::size_t b) {
                                            return std::optional<std::size_t>(a + b);
                                          });
        check_failure(made, k);
        if (k == nowhere) CHECK(*made == n * (n - (n > 0)) / 2);
        starts.check_ordered(k, threads);
      }
    }
  });
}

TEST_CASE("try_reduce returns the failures of op", "[iter][fallible]") {
  // op fails when either side is negative: any association of the items meets the one
  // negative item when there are two items or more, so the result fails exactly then.
  in_each_pool([](std::size_t threads) {
    for (std::size_t n : sizes) {
      for (std::size_t k : first_failures(n)) {
        INFO("threads " << threads << " n " << n << " negative item at " << k);
        const auto got =
            weft::range(std::size_t{0}, n)
                .map([k](std::size_t i) { return std::optional<long>(i == k ? -1L : 1L); })
                .try_reduce(0L, [](long a, long b) {
                  return a < 0 || b < 0 ? std::optional<long>{} : std::optional<long>(a + b);
                });
        if (k == nowhere)
          CHECK(*got == static_cast<long>(n));
        else if (n == 1)
          CHECK(*got == -1);
        else
          CHECK(!got.has_value());
      }
    }
  });
  CHECK(*weft::range(0, 0).map([](int) { return std::optional<int>(1); }).try_reduce(7, [](int a, int b) {
    return std::optional<int>(a + b);
  }) == 7);  // no items: the identity
}

TEST_CASE("try_fold then try_reduce is a checked sum that stops at the first failure",
          "[iter][fallible]") {
  in_each_pool([](std::size_t threads) {
    for (std::size_t n : sizes) {
      for (std::size_t k : first_failures(n)) {
        INFO("threads " << threads << " n " << n << " first failure " << k);
        using R = outcome<std::size_t, std::size_t>;
        start_counts starts(n);
        const R got = weft::range(std::size_t{0}, n)
                          .try_fold(std::size_t{0},
                                    [&](std::size_t acc, std::size_t i) {
                                      starts.start(i);
                                      return fails(i, k) ? R::failure(i) : R(acc + i);
                                    })
                          .try_reduce(std::size_t{0},
                                      [](std::size_t a, std::size_t b) { return R(a + b); });
        check_failure(got, k);
        if (k == nowhere) CHECK(*got == n * (n - (n > 0)) / 2);
        starts.check_ordered(k, threads);
        // After a filter the fold takes its items one at a time, not a block at a time.
        const R filtered = weft::range(std::size_t{0}, n)
                               .filter([](std::size_t) { return true; })
                               .try_fold([] { return std::size_t{0}; },
                                         [k](std::size_t acc, std::size_t i) {
                                           return fails(i, k) ? R::failure(i) : R(acc + i);
                                         })
                               .try_reduce(std::size_t{0},
                                           [](std::size_t a, std::size_t b) { return R(a + b); });
        check_failure(filtered, k);
        if (k == nowhere) CHECK(*filtered == n * (n - (n > 0)) / 2);
      }
    }
  });
}

TEST_CASE("try_fold yields one accumulator per leaf in order", "[iter][fallible]") {
  in_each_pool([](std::size_t) {
    const std::size_t n = 100003;
    // Each leaf's accumulator is the run of positions it folded: the runs tile [0, n).
    const auto runs = weft::range(std::size_t{0}, n)
                          .try_fold([] { return std::pair<std::size_t, std::size_t>{nowhere, 0}; },
                                    [](std::pair<std::size_t, std::size_t> run, std::size_t i) {
                                      if (run.first == nowhere) run.first = i;
                                      const bool next = run.second == 0 || run.first + run.second == i;
                                      ++run.second;
                                      return next ? std::optional(run) : std::nullopt;
                                    })
                          .to_vector();
    REQUIRE(!runs.empty());
    std::size_t at = 0, broken = 0;
    for (const auto& r : runs) {
      broken += !r.has_value() || r->first != at;
      if (r) at += r->second;
    }
    CHECK(broken == 0);
    CHECK(at == n);
    CHECK(weft::range(0, 0).try_fold(0, [](int a, int b) { return std::optional(a + b); }).count() == 0);
  });
}

TEST_CASE("while_some gives the prefix before the first nullopt", "[iter][fallible]") {
  in_each_pool([](std::size_t threads) {
    for (std::size_t n : sizes) {
      for (std::size_t k : first_failures(n)) {
        INFO("threads " << threads << " n " << n << " first nullopt " << k);
        std::vector<std::optional<std::size_t>> items(n);
        const std::size_t end = k == nowhere ? n : k;
        for (std::size_t i = 0; i < n; ++i)
          if (!fails(i, k)) items[i] = i;
        std::vector<std::size_t> prefix(end);
        for (std::size_t i = 0; i < end; ++i) prefix[i] = i;

        CHECK((weft::iter(items).while_some().to_vector() == prefix));
        CHECK(weft::iter(items).while_some().count() == end);
        CHECK(weft::iter(items).while_some().sum() == end * (end - (end > 0)) / 2);
        // Searches see the prefix only: a match right after the nullopt is none.
        const std::size_t past = end + 1;
        CHECK(!weft::iter(items).while_some().any([past](std::size_t x) { return x == past; }));
        CHECK(!weft::iter(items).while_some().find_any([past](std::size_t x) { return x >= past; }));
        CHECK(!weft::iter(items).while_some().find_first([past](std::size_t x) { return x >= past; }));
        const auto last = weft::iter(items).while_some().find_last([](std::size_t) { return true; });
        CHECK(last == (end == 0 ? std::nullopt : std::optional<std::size_t>(end - 1)));
        // Items the pipeline makes, by value; a mutable borrowed prefix.
        start_counts starts(n);
        const auto made = weft::range(std::size_t{0}, n)
                              .map([&](std::size_t i) {
                                starts.start(i);
                                return fails(i, k) ? std::nullopt : std::optional(i);
                              })
                              .while_some()
                              .to_vector();
        CHECK((made == prefix));
        starts.check_ordered(k, threads);
        weft::iter(items).while_some().for_each([](std::size_t& x) { x += 1; });
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < end; ++i) wrong += items[i] != i + 1;
        CHECK(wrong == 0);
      }
    }
  });
}

TEST_CASE("find_map_first find_map_last and find_map_any", "[iter][fallible]") {
  in_each_pool([](std::size_t threads) {
    for (std::size_t n : sizes) {
      for (std::size_t k : first_failures(n)) {
        INFO("threads " << threads << " n " << n << " first match " << k);
        // Matches at k and every 97th position after it; f gives a value of another type.
        const auto f = [k](std::size_t i) {
          return fails(i, k) ? std::optional<double>(static_cast<double>(i) + 0.5) : std::nullopt;
        };
        std::optional<double> first, last;
        for (std::size_t i = 0; i < n; ++i)
          if (auto x = f(i)) {
            if (!first) first = x;
            last = x;
          }
        CHECK(weft::range(std::size_t{0}, n).find_map_first(f) == first);
        CHECK(weft::range(std::size_t{0}, n).find_map_last(f) == last);
        const auto any = weft::range(std::size_t{0}, n).find_map_any(f);
        CHECK(any.has_value() == first.has_value());
        if (any) CHECK(f(static_cast<std::size_t>(*any)) == any);
        // After a filter (unindexed, driven in reverse for find_map_last).
        const auto odd = [](std::size_t i) { return i % 2 == 1; };
        std::optional<double> first_odd, last_odd;
        for (std::size_t i = 1; i < n; i += 2)
          if (auto x = f(i)) {
            if (!first_odd) first_odd = x;
            last_odd = x;
          }
        CHECK(weft::range(std::size_t{0}, n).filter(odd).find_map_first(f) == first_odd);
        CHECK(weft::range(std::size_t{0}, n).filter(odd).find_map_last(f) == last_odd);
        if (threads == 1 && k != nowhere) {
          start_counts starts(n);
          (void)weft::range(std::size_t{0}, n).find_map_first([&](std::size_t i) {
            starts.start(i);
            return f(i);
          });
          starts.check_ordered(k, threads);
        }
      }
    }
  });
}

TEST_CASE("an exception from a fallible callable reaches the caller", "[iter][fallible]") {
  in_each_pool([](std::size_t) {
    const std::size_t n = 100003;
    for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      const auto throw_at = [at](std::size_t i) {
        if (i == at) throw std::runtime_error("item");
        return true;
      };
      CHECK_THROWS_AS(weft::range(std::size_t{0}, n).try_for_each(throw_at), std::runtime_error);
      CHECK_THROWS_AS(weft::range(std::size_t{0}, n)
                          .try_for_each_init([] { return 0; },
                                             [&](int&, std::size_t i) { return throw_at(i); }),
                      std::runtime_error);
      CHECK_THROWS_AS(weft::range(std::size_t{0}, n)
                          .try_fold(0, [&](int a, std::size_t i) {
                            throw_at(i);
                            return std::optional(a);
                          })
                          .try_reduce(0, [](int a, int) { return std::optional(a); }),
                      std::runtime_error);
      CHECK_THROWS_AS(weft::range(std::size_t{0}, n)
                          .map([](std::size_t i) { return std::optional(i); })
                          .try_reduce(std::size_t{0},
                                      [half = n * (n - 1) / 4](std::size_t a, std::size_t b) {
                                        if (a + b > half) throw std::runtime_error("op");
                                        return std::optional(a + b);
                                      }),
                      std::runtime_error);
      CHECK_THROWS_AS(weft::range(std::size_t{0}, n).find_map_first([&](std::size_t i) {
        throw_at(i);
        return std::optional<int>{};
      }),
                      std::runtime_error);
    }
    // The pool is still usable.
    CHECK(weft::range(0, 1000).try_for_each([](int i) { return i >= 0; }));
  });
}
