// SPDX-License-Identifier: MIT
// libFuzzer target: pipelines built from the fuzzer's bytes, each result compared with a
// sequential reference computed by plain loops, on a pool of 1, 2 or 7 threads.
//
// The bytes are a small program: a pool, a source (its length and kind: a borrowed vector,
// a vector moved into the pipeline, weft::range), then up to eight stages, each an adaptor
// (or a fused pair), a consumer, and a piece length for with_max_len (which forces the
// splits the engine would otherwise skip on small inputs). A stage's items, collected, are
// the next stage's source: a pipeline's type is fixed at compile time, so stages are joined
// through vectors while the splits, the consumers and the adaptors' arguments come from the
// bytes. docs/testing.md#fuzzing
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "fuzz_input.hpp"

namespace {

using weft_fuzz::check;
using vec = std::vector<long>;

constexpr long modulus = 1000003;
constexpr std::size_t max_items = 20000;  // flat_map and chain stop growing the data here

long mix(long x) { return (x * 31 + 7) % modulus; }

// The reference for stage `op` with argument `p` on `in`, and the stage on weft.
vec reference(int op, std::size_t p, const vec& in) {
  vec out;
  const std::size_t n = in.size();
  switch (op) {
    case 0: for (long x : in) out.push_back(mix(x)); break;
    case 1: for (long x : in) if (x % static_cast<long>(p + 2) != 0) out.push_back(x); break;
    case 2: {
      const std::size_t k = p == 255 ? SIZE_MAX : p + 1;
      for (std::size_t i = 0; i < n; i += k) {
        out.push_back(in[i]);
        if (k > n) break;
      }
      break;
    }
    case 3: out.assign(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(std::min(n, p * 7))); break;
    case 4: out.assign(in.begin() + static_cast<std::ptrdiff_t>(std::min(n, p)), in.end()); break;
    case 5: {
      const std::size_t w = p + 1;
      for (std::size_t i = 0; i < n; i += w) {
        long s = 0;
        for (std::size_t j = i; j < std::min(n, i + w); ++j) s += in[j];
        out.push_back(s % modulus);
      }
      break;
    }
    case 6: {
      const std::size_t w = p % 9 + 1;
      for (std::size_t i = 0; i + w <= n; ++i) {
        long s = 0;
        for (std::size_t j = i; j < i + w; ++j) s += in[j] * static_cast<long>(j - i + 1);
        out.push_back(s % modulus);
      }
      break;
    }
    case 7: for (std::size_t i = 0; i < n; ++i) out.push_back((in[i] + static_cast<long>(i)) % modulus); break;
    case 8: for (std::size_t i = 0; i < std::min(n, p * 3); ++i) out.push_back(in[i] - static_cast<long>(i % 5)); break;
    case 9: out.assign(in.rbegin(), in.rend()); break;
    case 10:
      for (long x : in)
        for (long c = 0; c < x % 3 && n * 2 <= max_items; ++c) out.push_back(x + c);
      if (n * 2 > max_items) out = in;
      break;
    case 11: {
      out = in;
      if (n + p <= max_items)
        for (std::size_t i = 0; i < p; ++i) out.push_back(static_cast<long>(i));
      break;
    }
    case 12: {  // skip(p % 5).step_by(p % 3 + 1).rev()
      vec s;
      for (std::size_t i = std::min(n, p % 5); i < n; i += p % 3 + 1) s.push_back(in[i]);
      out.assign(s.rbegin(), s.rend());
      break;
    }
    default: {  // zip(self).enumerate().chunks(p % 4 + 1): each chunk's first (i, (x, x)) as i + 2x
      for (std::size_t i = 0; i < n; i += p % 4 + 1) out.push_back((static_cast<long>(i) + 2 * in[i]) % modulus);
      break;
    }
  }
  return out;
}

// Stage `op` over `src` (a pipeline over the current items), handed to `consume` with
// whether every consumer runs on it. Each consumer compiles once per pipeline type, so the
// scalar consumers run on the stages whose folding differs (an unindexed stage, reversed or
// chained producers, runs); the others are collected.
template <class Src, class Consume>
void stage(int op, std::size_t p, const vec& cur, Src src, Consume&& consume_any) {
  const auto consume = [&](auto pl) { consume_any(std::move(pl), std::false_type{}); };
  const auto consume_all = [&](auto pl) { consume_any(std::move(pl), std::true_type{}); };
  switch (op) {
    case 0: return consume(std::move(src).map([](long x) { return mix(x); }));
    case 1: return consume_all(std::move(src).filter([p](long x) { return x % static_cast<long>(p + 2) != 0; }));
    case 2: return consume(std::move(src).step_by(p == 255 ? SIZE_MAX : p + 1));
    case 3: return consume(std::move(src).take(p * 7));
    case 4: return consume(std::move(src).skip(p));
    case 5:
      return consume_all(std::move(src).chunks(p + 1).map([](const auto& c) {
        long s = 0;
        for (long x : c) s += x;
        return s % modulus;
      }));
    case 6:
      return consume(std::move(src).windows(p % 9 + 1).map([](const auto& w) {
        long s = 0;
        long k = 1;
        for (long x : w) s += x * k++;
        return s % modulus;
      }));
    case 7:
      return consume(std::move(src).enumerate().map([](const auto& ix) {
        return (ix.second + static_cast<long>(ix.first)) % modulus;
      }));
    case 8: {
      vec other(std::min(cur.size(), p * 3));
      for (std::size_t i = 0; i < other.size(); ++i) other[i] = static_cast<long>(i % 5);
      return consume(std::move(src).zip(std::move(other)).map([](const auto& xy) { return xy.first - xy.second; }));
    }
    case 9: return consume_all(std::move(src).rev());
    case 10: {
      const bool grow = cur.size() * 2 <= max_items;
      return consume_all(std::move(src).flat_map([grow](long x) {
        vec r;
        if (!grow) r.push_back(x);
        for (long c = 0; grow && c < x % 3; ++c) r.push_back(x + c);
        return r;
      }));
    }
    case 11: {
      vec tail;
      if (cur.size() + p <= max_items)
        for (std::size_t i = 0; i < p; ++i) tail.push_back(static_cast<long>(i));
      return consume_all(std::move(src).chain(std::move(tail)));
    }
    case 12: return consume(std::move(src).skip(p % 5).step_by(p % 3 + 1).rev());
    default:
      return consume_all(std::move(src).zip(cur).enumerate().chunks(p % 4 + 1).map([](const auto& c) {
        const auto& first = *c.begin();
        return (static_cast<long>(first.first) + first.second.first + first.second.second) % modulus;
      }));
  }
}

// Consumer `c` (1 to 7) on pipeline `pl`, checked against the reference items `want`.
template <class Pipeline>
void check_scalar(int c, std::size_t arg, Pipeline& pl, const vec& want) {
  const long key = static_cast<long>(arg);
  const auto pred = [key](long x) { return x % 7 == key % 7; };
  switch (c) {
    case 1: {
      long s = 0;
      for (long x : want) s += x;
      check(pl.sum() == s, "sum");
      break;
    }
    case 2: check(pl.count() == want.size(), "count"); break;
    case 3: {
      const auto m = pl.min();
      check(m.has_value() == !want.empty() && (!m || *m == *std::min_element(want.begin(), want.end())), "min");
      break;
    }
    case 4: {
      const auto m = pl.max();
      check(m.has_value() == !want.empty() && (!m || *m == *std::max_element(want.begin(), want.end())), "max");
      break;
    }
    case 5: {
      const auto it = std::find_if(want.begin(), want.end(), pred);
      const auto got = pl.find_first(pred);
      check(got.has_value() == (it != want.end()) && (!got || *got == *it), "find_first");
      break;
    }
    case 6: {
      const auto it = std::find_if(want.rbegin(), want.rend(), pred);
      const auto got = pl.find_last(pred);
      check(got.has_value() == (it != want.rend()) && (!got || *got == *it), "find_last");
      break;
    }
    default: check(pl.any(pred) == std::any_of(want.begin(), want.end(), pred), "any"); break;
  }
}

// Consumer `c` on pipeline `pl`, checked against the reference items `want`; returns the
// items when the consumer collects them (for the next stage). Without All, only the
// collecting consumers run.
template <bool All, class Pipeline>
std::optional<vec> consume(int c, std::size_t arg, Pipeline pl, const vec& want) {
  if constexpr (All) {
    if (c >= 1 && c <= 7) {
      check_scalar(c, arg, pl, want);
      return std::nullopt;
    }
  }
  vec got;
  if (c % 2 == 0)
    got = pl.to_vector();
  else
    pl.collect_into(got);
  check(got == want, "the collected items differ from the reference");
  return got;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  weft_fuzz::input in{data, size};
  weft::thread_pool& pool = weft_fuzz::pool_for(in.byte());
  const std::uint8_t kind = in.byte();
  const std::size_t n = in.u16() % 3000;
  const long first = static_cast<long>(in.byte()) - 100;
  pool.install([&] {
    // The source stage: its items, read through the source kind.
    vec cur(n);
    for (std::size_t i = 0; i < n; ++i) cur[i] = first + static_cast<long>(i);
    switch (kind % 3) {
      case 0: check(weft::iter(cur).to_vector() == cur, "borrowed source"); break;
      case 1: check(weft::iter(vec(cur)).with_max_len(kind / 3 + 1).to_vector() == cur, "owned source"); break;
      default: check(weft::range(first, first + static_cast<long>(n)).with_max_len(kind / 3 + 1).to_vector() == cur, "weft::range"); break;
    }
    for (int s = 0; s < 8 && !in.done(); ++s) {
      const int op = in.byte() % 14;
      const std::size_t p = in.byte();
      const int c = in.byte() % 9;
      const std::uint8_t len = in.byte();
      const vec want = reference(op, p, cur);
      std::optional<vec> got;
      const auto run = [&](auto pl, auto all) {
        constexpr bool every = decltype(all)::value;
        if (len == 0)
          got = consume<every>(c, p, std::move(pl), want);
        else  // the same pipeline type: no second instantiation
          got = consume<every>(c, p, std::move(pl).with_max_len(len), want);
      };
      stage(op, p, cur, weft::iter(cur), run);
      cur = got ? std::move(*got) : want;
    }
  });
  return 0;
}
