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
  // Found by argument-dependent lookup from the shared checks, also inside std::pair.
  friend long key_of(const box& b) { return b.key(); }
};

// Items are compared with the reference through their keys: a box cannot be copied into one.
const auto by_key = [](const auto& x) {
  using weft_sweep::key_of;
  return key_of(x);
};

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

  SECTION("source") { weft_sweep::check_consumers([&] { return mk(boxes(data)); }, data, by_key); }
  SECTION("filter") {
    const auto keep = [](long k) { return k % 3 != 0; };
    weft_sweep::check_consumers([&] { return mk(boxes(data).filter([&](const box& b) { return keep(b.key()); })); },
                    ref_where(keep, same), by_key);
  }
  SECTION("chain") {
    std::vector<long> ref(data);
    ref.insert(ref.end(), other.begin(), other.end());
    weft_sweep::check_consumers([&] { return mk(boxes(data).chain(boxes(other))); }, ref, by_key);
    const auto keep = [](long k) { return k % 3 != 0; };
    std::vector<long> kept;
    for (const long k : ref)
      if (keep(k)) kept.push_back(k);
    const auto keep_box = [&](const box& b) { return keep(b.key()); };
    weft_sweep::check_consumers(
        [&] { return mk(boxes(data).filter(keep_box).chain(boxes(other).filter(keep_box))); }, kept, by_key);
  }
  SECTION("map") {
    weft_sweep::check_items([&] { return mk(boxes(data).map([](box b) { return box(bump(b.key())); })); },
                ref_where(all, bump), by_key);
  }
  SECTION("filter_map") {
    const auto keep = [](long k) { return k % 4 != 1; };
    weft_sweep::check_items([&] {
      return mk(boxes(data).filter_map([&](box b) -> std::optional<box> {
        if (keep(b.key())) return box(bump(b.key()));
        return std::nullopt;
      }));
    }, ref_where(keep, bump), by_key);
  }
  SECTION("flat_map") {
    std::vector<long> ref;
    for (const long k : data)
      for (long j = 0; j < ((k % 3) + 3) % 3; ++j) ref.push_back(k + j);
    weft_sweep::check_items([&] {
      return mk(boxes(data).flat_map([](const box& b) {
        std::vector<box> out;
        for (long j = 0; j < ((b.key() % 3) + 3) % 3; ++j) out.emplace_back(b.key() + j);
        return out;
      }));
    }, ref, by_key);
  }
  SECTION("inspect") {
    std::atomic<std::size_t> seen{0};
    weft_sweep::check_items([&] {
      return mk(boxes(data).inspect([&](const box&) { seen.fetch_add(1, std::memory_order_relaxed); }));
    }, data, by_key);
    CHECK(seen.load() >= data.size());
  }
  SECTION("enumerate") {
    std::vector<long> ref;
    for (std::size_t i = 0; i < n; ++i) ref.push_back(static_cast<long>(i) * 7 + data[i]);
    weft_sweep::check_items([&] { return mk(boxes(data).enumerate()); }, ref, by_key);
  }
  SECTION("zip") {
    std::vector<long> ref;
    for (std::size_t i = 0; i < std::min(n, other.size()); ++i) ref.push_back(data[i] * 7 + other[i]);
    weft_sweep::check_items([&] { return mk(boxes(data).zip(boxes(other))); }, ref, by_key);
  }
  SECTION("take, skip, step_by and rev") {
    for (std::size_t k : {std::size_t{0}, std::size_t{1}, n / 2, n, n + 5}) {
      const auto m = static_cast<std::ptrdiff_t>(std::min(k, n));
      weft_sweep::check_items([&] { return mk(boxes(data).take(k)); }, std::vector<long>(data.begin(), data.begin() + m), by_key);
      weft_sweep::check_items([&] { return mk(boxes(data).skip(k)); }, std::vector<long>(data.begin() + m, data.end()), by_key);
    }
    for (std::size_t k : {std::size_t{1}, std::size_t{7}}) {
      std::vector<long> ref;
      for (std::size_t i = 0; i < n; i += k) ref.push_back(data[i]);
      weft_sweep::check_items([&] { return mk(boxes(data).step_by(k)); }, ref, by_key);
    }
    weft_sweep::check_items([&] { return mk(boxes(data).rev()); }, std::vector<long>(data.rbegin(), data.rend()), by_key);
  }
}

}  // namespace

TEST_CASE("every adaptor and consumer matches the sequential reference: move-only items",
          "[iter][sweep]") {
  const std::size_t lengths[] = {0, 1, 2, 3, 7, 63, 64, 65, 1000, 100003};
  for (const std::size_t n : lengths)
    for (int mode = 0; mode < 4; ++mode) {
      // As for strings (iter_sweep.hpp): a split at every one of 100003 items adds nothing
      // that 1000 items split at every item do not show, and under ASan it took 18 of this
      // case's 32 s at 2 threads.
      if (mode == 1 && n > 1000) continue;
      DYNAMIC_SECTION("n=" << n << " mode=" << mode) { sweep(n, mode); }
    }
}
