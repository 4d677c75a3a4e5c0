// SPDX-License-Identifier: MIT
// Gathers into vectors given or made: collect_into (the items replace a vector's contents in
// its own allocation) and unzip (pairs into two vectors).
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

TEST_CASE("collect_into reuses the vector's allocation", "[iter][interface]") {
  // 2 M doubles (16 MiB): the indexed output is streamed, and faulted in when it grows.
  const std::size_t n = std::size_t{1} << 21;
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i);
  const auto twice = [](double x) { return 2 * x; };
  const auto even = [](double x) { return static_cast<std::size_t>(x) % 2 == 0; };
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      const auto want = weft::iter(v).map(twice).to_vector();
      std::vector<double> out;
      weft::iter(v).map(twice).collect_into(out);
      CHECK(out == want);
      const double* const storage = out.data();
      // Fewer items, then as many again, then through a filter: the same allocation.
      weft::iter(v).take(1000).map(twice).collect_into(out);
      CHECK(out == std::vector<double>(want.begin(), want.begin() + 1000));
      CHECK(out.data() == storage);
      weft::iter(v).map(twice).with_max_len(4096).collect_into(out);
      CHECK(out == want);
      CHECK(out.data() == storage);
      weft::iter(v).with_max_len(100'000).filter(even).collect_into(out);
      CHECK(out.size() == n / 2);
      CHECK(out[12345] == 24690.0);
      CHECK(out.data() == storage);
      // A reserved but empty vector is filled in place; one too small is replaced.
      std::vector<double> reserved;
      reserved.reserve(n);
      const double* const room = reserved.data();
      weft::iter(v).collect_into(reserved);
      CHECK(reserved == v);
      CHECK(reserved.data() == room);
      std::vector<double> small(10, -1.0);
      weft::iter(v).map(twice).collect_into(small);
      CHECK(small == want);
      // Non-trivial elements are assigned over: contents right, strings intact.
      std::vector<std::string> words(3000, std::string(40, 'x'));
      weft::range(0, 2000).map([](int i) { return std::to_string(i); }).collect_into(words);
      REQUIRE(words.size() == 2000);
      CHECK(words[1999] == "1999");
      CHECK(words[7] == "7");
      // An exception leaves the vector valid and the pool usable.
      CHECK_THROWS_AS(weft::iter(v).with_max_len(1000).map([](double x) {
        if (x == 77'777.0) throw std::runtime_error("item");
        return x;
      }).collect_into(out),
                      std::runtime_error);
      weft::iter(v).map(twice).collect_into(out);
      CHECK(out == want);
    });
  }
}

TEST_CASE("unzip: pairs into two vectors, in order", "[iter][interface]") {
  std::vector<int> a(100003);
  std::vector<std::string> b(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<int>(i * 7 % 1000);
    b[i] = std::string(i % 9, 'b') + std::to_string(i);
  }
  const auto odd = [](const std::pair<const int&, std::string&>& p) { return p.first % 2 != 0; };
  std::vector<int> odd_a;
  std::vector<std::string> odd_b;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] % 2 != 0) {
      odd_a.push_back(a[i]);
      odd_b.push_back(b[i]);
    }
  const std::vector<int>& ca = a;
  for (const std::size_t threads : {std::size_t{1}, std::size_t{2}}) {
    weft::thread_pool pool({.num_threads = threads});
    pool.install([&] {
      // Borrowed halves are copied: zip then unzip gives the inputs back.
      const auto [xs, ys] = weft::iter(ca).zip(b).unzip();
      CHECK(xs == a);
      CHECK(ys == b);
      const auto [is, items] = weft::iter(ca).enumerate().with_max_len(1000).unzip();
      CHECK(is.size() == a.size());
      CHECK(is.back() == a.size() - 1);
      CHECK(items == a);
      // Through a filter (gathered in pieces).
      const auto [fa, fb] = weft::iter(ca).zip(b).filter(odd).unzip();
      CHECK(fa == odd_a);
      CHECK(fb == odd_b);
      // Pairs a map makes: the halves are moved out, move-only ones too.
      auto [lens, ptrs] = weft::iter(b).map([](const std::string& s) {
        return std::pair{s.size(), std::make_unique<std::string>(s)};
      }).unzip();
      REQUIRE(ptrs.size() == b.size());
      CHECK(*ptrs[12345] == b[12345]);
      CHECK(lens[12345] == b[12345].size());
      CHECK_THROWS_AS(weft::iter(ca).zip(b).with_max_len(100).map([](auto p) {
        if (p.first == 777) throw std::runtime_error("item");
        return std::pair{p.first, p.second};
      }).unzip(),
                      std::runtime_error);
      CHECK(weft::iter(ca).zip(b).unzip().first == a);  // the pool still works
    });
  }
}
