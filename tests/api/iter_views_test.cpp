// SPDX-License-Identifier: MIT
// Runs (chunks, windows) over storage the pipeline owns are used inside the pipeline, or
// mapped to values, and runs over borrowed storage are returned: the forms that
// docs/guide.md#items-that-view-the-pipeline allows, read after the pipeline is gone (ASan
// sees a use after free if a run still points into it). The refused forms are compile-fail
// tests (tests/compile_fail/iter_runs_*.cpp).
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <atomic>
#include <cstddef>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

std::vector<std::string> words(std::size_t n) {
  std::vector<std::string> w;
  for (std::size_t i = 0; i < n; ++i) w.push_back("word number " + std::to_string(i) + " of many");
  return w;
}

std::vector<int> ints(std::size_t n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

}  // namespace

TEST_CASE("iter views: runs of an owned source are used inside the pipeline", "[iter][interface]") {
  for (const std::size_t n : {0, 1, 5, 1000}) {
    CAPTURE(n);
    std::atomic<long> seen{0};
    weft::iter(ints(n)).chunks(3).for_each([&](std::span<int> c) {
      for (const int x : c) seen.fetch_add(x, std::memory_order_relaxed);
    });
    const long total = static_cast<long>(n) * (static_cast<long>(n) - 1) / 2;
    CHECK(seen.load() == total);
    const auto sums = weft::iter(ints(n))
                          .chunks(3)
                          .map([](std::span<int> c) { return std::accumulate(c.begin(), c.end(), 0L); })
                          .to_vector();
    CHECK(std::accumulate(sums.begin(), sums.end(), 0L) == total);
    const long windows = weft::iter(ints(n)).windows(2).map([](std::span<int> w) { return long{w[1] - w[0]}; }).sum();
    CHECK(windows == (n >= 2 ? static_cast<long>(n) - 1 : 0));
    CHECK(weft::iter(ints(n)).windows(4).count() == (n >= 4 ? n - 3 : 0));
  }
}

TEST_CASE("iter views: chunks of a zip with an owned container map to owning values", "[iter][interface]") {
  const std::vector<int> a = ints(101);
  using pair = std::pair<int, std::string>;
  const auto chunks = weft::iter(a)
                          .zip(words(101))
                          .chunks(2)
                          .map([](const auto& c) {
                            std::vector<pair> out;
                            for (const auto& [x, s] : c) out.emplace_back(x, s);
                            return out;
                          })
                          .to_vector();
  REQUIRE(chunks.size() == 51);
  const auto w = words(101);
  for (std::size_t i = 0; i < 101; ++i) {
    const pair& p = chunks[i / 2][i % 2];
    CHECK(p.first == a[i]);
    CHECK(p.second == w[i]);
  }
  CHECK(chunks.back().size() == 1);
}

TEST_CASE("iter views: runs of borrowed storage outlive the pipeline", "[iter][interface]") {
  std::vector<int> a = ints(50);
  const std::vector<std::string> b = words(50);
  const auto spans = weft::iter(a).chunks(7).to_vector();
  REQUIRE(spans.size() == 8);
  CHECK(spans[7].size() == 1);
  CHECK(spans[3][2] == 23);
  const auto zipped = weft::iter(a).zip(b).chunks(4).to_vector();
  REQUIRE(zipped.size() == 13);
  CHECK((*zipped[5].begin()).second == b[20]);
  const auto best = weft::iter(b).windows(3).max_by([](const auto& l, const auto& r) { return l[0] < r[0]; });
  REQUIRE(best);
  CHECK((*best)[0] == *std::max_element(b.begin(), b.end() - 2));
  const auto hit = weft::iter(a).rev().chunks(5).find_first([](const auto& c) { return c[0] < 30; });
  REQUIRE(hit);
  CHECK((*hit)[0] == 29);
}
