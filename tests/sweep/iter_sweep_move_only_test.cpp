// SPDX-License-Identifier: MIT
// The iterator sweep for move-only items: pipelines whose items are produced by `map` (a
// borrowed container of move-only items yields references, which the int/double/string
// sweeps already cover), through every adaptor and every consumer that does not need a copy.
// Each item owns a heap cell, so a lost, duplicated or double-moved item shows up as a wrong
// key here and as a leak or double free under ASan.
#include "iter_sweep.hpp"

#include <memory>

namespace {

struct box {
  std::unique_ptr<long> p;
  explicit box(long v) : p(std::make_unique<long>(v)) {}
  long key() const { return p ? *p : -999'999'999; }
};

long key_of(const box& b) { return b.key(); }
long key_of(std::size_t i) { return static_cast<long>(i); }
template <class A, class B>
long key_of(const std::pair<A, B>& pr) {
  return key_of(pr.first) * 7 + key_of(pr.second);
}

bool rare_item(const auto& x) { return weft_sweep::rare(key_of(x)); }

template <class V>
std::vector<long> keys(const std::vector<V>& items) {
  std::vector<long> k;
  for (const auto& x : items) k.push_back(key_of(x));
  return k;
}

std::optional<long> key_or_none(const auto& found) {
  return found ? std::optional<long>(key_of(*found)) : std::nullopt;
}

// Every consumer that takes move-only items, on a pipeline whose item keys equal `ref`.
template <class Make>
void check_consumers(Make make, const std::vector<long>& ref) {
  INFO("length " << ref.size());
  CHECK(keys(make().to_vector()) == ref);
  CHECK(keys(make().template collect<std::vector<box>>()) == ref);
  CHECK(make().count() == ref.size());

  std::optional<long> min_ref, max_ref, first_rare, last_rare;
  for (const long k : ref) {
    if (!min_ref || k < *min_ref) min_ref = k;
    if (!max_ref || k >= *max_ref) max_ref = k;
    if (weft_sweep::rare(k)) {
      if (!first_rare) first_rare = k;
      last_rare = k;
    }
  }
  const auto less = [](const box& a, const box& b) { return a.key() < b.key(); };
  CHECK(key_or_none(make().min_by(less)) == min_ref);
  CHECK(key_or_none(make().max_by(less)) == max_ref);
  CHECK(key_or_none(make().min_by_key([](const box& b) { return b.key(); })) == min_ref);
  CHECK(key_or_none(make().max_by_key([](const box& b) { return b.key(); })) == max_ref);

  const auto is_rare = [](const box& b) { return weft_sweep::rare(b.key()); };
  CHECK(make().any(is_rare) == first_rare.has_value());
  CHECK(make().none(is_rare) == !first_rare.has_value());
  CHECK(make().all([&](const box& b) { return !is_rare(b); }) == !first_rare.has_value());
  CHECK(key_or_none(make().find_first(is_rare)) == first_rare);
  CHECK(key_or_none(make().find_last(is_rare)) == last_rare);
  const auto any_hit = make().find_any(is_rare);
  CHECK(any_hit.has_value() == first_rare.has_value());
  if (any_hit) CHECK(is_rare(*any_hit));
  if constexpr (decltype(make())::indexed) {
    const auto at = std::find_if(ref.begin(), ref.end(), [](long k) { return weft_sweep::rare(k); });
    const auto pos = make().position_first(is_rare);
    CHECK(pos == (at != ref.end() ? std::optional<std::size_t>(static_cast<std::size_t>(at - ref.begin()))
                                  : std::nullopt));
  }

  auto [yes, no] = make().partition(is_rare);
  std::vector<long> yes_ref, no_ref;
  for (const long k : ref) (weft_sweep::rare(k) ? yes_ref : no_ref).push_back(k);
  CHECK(keys(yes) == yes_ref);
  CHECK(keys(no) == no_ref);

  // reduce: the identity is a plain value, items are consumed into it; the fold of keys is
  // order-sensitive, so a reordered or lost item changes it.
  struct h {
    unsigned long long v;
    std::size_t n;
  };
  const auto combine = [](h a, h b) {
    unsigned long long p = 1;
    for (std::size_t i = 0; i < b.n; ++i) p *= 1000003ULL;
    return h{a.v * p + b.v, a.n + b.n};
  };
  h want{0, 0};
  for (const long k : ref) want = combine(want, h{static_cast<unsigned long long>(k), 1});
  const h got = make().reduce(h{0, 0}, [&](h a, auto&& x) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(x)>, h>)
      return combine(a, x);
    else
      return combine(a, h{static_cast<unsigned long long>(x.key()), 1});
  });
  CHECK(got.v == want.v);
  CHECK(got.n == want.n);

  std::atomic<long> key_sum{0};
  make().for_each([&](box b) { key_sum.fetch_add(b.key(), std::memory_order_relaxed); });  // by value: moved in
  long key_ref = 0;
  for (const long k : ref) key_ref += k;
  CHECK(key_sum.load() == key_ref);
}

// The items (as keys), their order and the first rare one, for adaptors.
template <class Make>
void check_items(Make make, const std::vector<long>& ref) {
  INFO("length " << ref.size());
  CHECK(keys(make().to_vector()) == ref);
  CHECK(make().count() == ref.size());
  const auto at = std::find_if(ref.begin(), ref.end(), [](long k) { return weft_sweep::rare(k); });
  CHECK(key_or_none(make().find_first([](const auto& x) { return rare_item(x); })) ==
        (at != ref.end() ? std::optional<long>(*at) : std::nullopt));
}

long bump(long k) { return k * 3 + 1; }

void sweep(std::size_t n, int mode) {
  const auto ints = weft_sweep::make_data<int>(n, 1);
  const std::vector<long> data(ints.begin(), ints.end());
  const auto other_ints = weft_sweep::make_data<int>(n / 2 + 3, 2);
  const std::vector<long> other(other_ints.begin(), other_ints.end());
  auto mk = [&](auto pipe) { return weft_sweep::with_mode(std::move(pipe), mode); };
  // The source: an indexed pipeline of fresh boxes.
  auto boxes = [&](const std::vector<long>& keys_in) {
    return weft::range(std::size_t{0}, keys_in.size()).map([&keys_in](std::size_t i) { return box(keys_in[i]); });
  };
  auto ref_where = [&](auto keep, auto value) {
    std::vector<long> r;
    for (const long k : data)
      if (keep(k)) r.push_back(value(k));
    return r;
  };
  const auto all = [](long) { return true; };
  const auto same = [](long k) { return k; };

  SECTION("source") { check_consumers([&] { return mk(boxes(data)); }, data); }
  SECTION("filter") {
    const auto keep = [](long k) { return k % 3 != 0; };
    check_consumers([&] { return mk(boxes(data).filter([&](const box& b) { return keep(b.key()); })); },
                    ref_where(keep, same));
  }
  SECTION("map") {
    check_items([&] { return mk(boxes(data).map([](box b) { return box(bump(b.key())); })); },
                ref_where(all, bump));
  }
  SECTION("filter_map") {
    const auto keep = [](long k) { return k % 4 != 1; };
    check_items([&] {
      return mk(boxes(data).filter_map([&](box b) -> std::optional<box> {
        if (keep(b.key())) return box(bump(b.key()));
        return std::nullopt;
      }));
    }, ref_where(keep, bump));
  }
  SECTION("flat_map") {
    std::vector<long> ref;
    for (const long k : data)
      for (long j = 0; j < ((k % 3) + 3) % 3; ++j) ref.push_back(k + j);
    check_items([&] {
      return mk(boxes(data).flat_map([](const box& b) {
        std::vector<box> out;
        for (long j = 0; j < ((b.key() % 3) + 3) % 3; ++j) out.emplace_back(b.key() + j);
        return out;
      }));
    }, ref);
  }
  SECTION("inspect") {
    std::atomic<std::size_t> seen{0};
    check_items([&] {
      return mk(boxes(data).inspect([&](const box&) { seen.fetch_add(1, std::memory_order_relaxed); }));
    }, data);
    CHECK(seen.load() >= data.size());
  }
  SECTION("enumerate") {
    std::vector<long> ref;
    for (std::size_t i = 0; i < n; ++i) ref.push_back(static_cast<long>(i) * 7 + data[i]);
    check_items([&] { return mk(boxes(data).enumerate()); }, ref);
  }
  SECTION("zip") {
    std::vector<long> ref;
    for (std::size_t i = 0; i < std::min(n, other.size()); ++i) ref.push_back(data[i] * 7 + other[i]);
    check_items([&] { return mk(boxes(data).zip(boxes(other))); }, ref);
  }
  SECTION("take, skip, step_by and rev") {
    for (std::size_t k : {std::size_t{0}, std::size_t{1}, n / 2, n, n + 5}) {
      const auto m = static_cast<std::ptrdiff_t>(std::min(k, n));
      check_items([&] { return mk(boxes(data).take(k)); }, std::vector<long>(data.begin(), data.begin() + m));
      check_items([&] { return mk(boxes(data).skip(k)); }, std::vector<long>(data.begin() + m, data.end()));
    }
    for (std::size_t k : {std::size_t{1}, std::size_t{7}}) {
      std::vector<long> ref;
      for (std::size_t i = 0; i < n; i += k) ref.push_back(data[i]);
      check_items([&] { return mk(boxes(data).step_by(k)); }, ref);
    }
    check_items([&] { return mk(boxes(data).rev()); }, std::vector<long>(data.rbegin(), data.rend()));
  }
}

}  // namespace

TEST_CASE("every adaptor and consumer matches the sequential reference: move-only items",
          "[iter][sweep]") {
  const std::size_t lengths[] = {0, 1, 2, 3, 7, 63, 64, 65, 1000, 100003};
  for (const std::size_t n : lengths)
    for (int mode = 0; mode < 4; ++mode) {
      DYNAMIC_SECTION("n=" << n << " mode=" << mode) { sweep(n, mode); }
    }
}
