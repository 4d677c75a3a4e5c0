// SPDX-License-Identifier: MIT
// weft::split and weft::walk_tree_prefix / walk_tree_postfix against sequential cuts and
// walks: ranges and trees of 1, 2, 1,000 and 100,003 elements (random shapes, a deep
// chain), pools of 1, 2 and 7 threads; order kept, every piece and node once, searches and
// exceptions.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include "test_support.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using weft_test::on_every_pool;

constexpr std::size_t sizes[] = {1, 2, 1000, 100003};


using piece = std::pair<std::size_t, std::size_t>;

// A tree of n nodes: a chain (fan 1), a balanced binary tree (fan 2), or node i > 0 below
// a random earlier node (otherwise).
struct tree {
  std::vector<std::vector<std::size_t>> kids;
  explicit tree(std::size_t n, unsigned seed, std::size_t fan) : kids(n) {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 1; i < n; ++i)
      kids[fan == 1 ? i - 1 : fan == 2 ? (i - 1) / 2 : rng() % i].push_back(i);
  }
  std::vector<std::size_t> prefix() const {
    std::vector<std::size_t> out, stack{0};
    while (!stack.empty()) {
      const std::size_t x = stack.back();
      stack.pop_back();
      out.push_back(x);
      for (auto it = kids[x].rbegin(); it != kids[x].rend(); ++it) stack.push_back(*it);
    }
    return out;
  }
  std::vector<std::size_t> postfix() const {
    std::vector<std::size_t> out;
    std::vector<std::pair<std::size_t, std::size_t>> stack{{0, 0}};
    while (!stack.empty()) {
      auto& [x, next] = stack.back();
      if (next < kids[x].size()) {
        const std::size_t child = kids[x][next++];
        stack.emplace_back(child, 0);
      } else {
        out.push_back(x);
        stack.pop_back();
      }
    }
    return out;
  }
};

}  // namespace

TEST_CASE("split cuts in order until the splitter declines", "[iter][recursive]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      for (std::size_t smallest : {std::size_t{1}, std::size_t{100}, n}) {
        const auto halve = [smallest](piece p) -> std::pair<piece, std::optional<piece>> {
          if (p.second - p.first <= smallest) return {p, std::nullopt};
          const std::size_t mid = p.first + (p.second - p.first) / 3;  // uneven cuts
          return {piece{p.first, mid + 1}, piece{mid + 1, p.second}};
        };
        const auto pieces = weft::split(piece{0, n}, halve).to_vector();
        REQUIRE(!pieces.empty());
        std::size_t at = 0;
        bool contiguous = true;
        for (const auto& p : pieces) {
          contiguous = contiguous && p.first == at && p.second > p.first;
          at = p.second;
        }
        CHECK(contiguous);
        CHECK(at == n);
        const auto sum_of = [](piece p) {
          std::uint64_t t = 0;
          for (std::size_t i = p.first; i < p.second; ++i) t += i;
          return t;
        };
        CHECK(weft::split(piece{0, n}, halve).map(sum_of).sum() ==
              static_cast<std::uint64_t>(n) * (n - 1) / 2);
        const auto hit = weft::split(piece{0, n}, halve).find_first([n](piece p) {
          return p.second > n / 2;
        });
        REQUIRE(hit.has_value());
        CHECK((hit->first <= n / 2 && hit->second > n / 2));
      }
    }
  });
}

TEST_CASE("walk_tree_prefix and walk_tree_postfix visit every node in order",
          "[iter][recursive]") {
  on_every_pool([](std::size_t) {
    for (std::size_t n : sizes) {
      for (std::size_t fan : {std::size_t{1}, std::size_t{2}, std::size_t{1000000}}) {
        // Under a sanitizer the 100,003-node trees are the deep chain only: the wide shapes
        // of that size take a minute there and check what the 1,000-node ones check.
        if (weft_test::under_sanitizer && n > 1000 && fan != 1) continue;
        const tree t(n, static_cast<unsigned>(n + fan), fan);
        const auto children = [&t](const std::size_t& x) { return t.kids[x]; };
        CHECK(weft::walk_tree_prefix(std::size_t{0}, children).to_vector() == t.prefix());
        CHECK(weft::walk_tree_postfix(std::size_t{0}, children).to_vector() == t.postfix());
        CHECK(weft::walk_tree_prefix(std::size_t{0}, children).sum() ==
              static_cast<std::size_t>(n) * (n - 1) / 2);
        const auto prefix = t.prefix();
        const auto wanted = [n](std::size_t x) { return x >= n / 2; };
        std::optional<std::size_t> first;
        for (auto x : prefix)
          if (wanted(x)) {
            first = x;
            break;
          }
        CHECK(weft::walk_tree_prefix(std::size_t{0}, children).find_first(wanted) == first);
        CHECK(weft::walk_tree_postfix(std::size_t{0}, children).any(wanted));
      }
    }
  });
}

TEST_CASE("recursive sources: exceptions from the splitter or children_of reach the caller",
          "[iter][recursive]") {
  on_every_pool([](std::size_t) {
    const auto throwing_split = [](piece p) -> std::pair<piece, std::optional<piece>> {
      if (p.first > 0) throw std::runtime_error("split");  // the right half's first cut
      const std::size_t mid = p.first + (p.second - p.first) / 2;
      return {piece{p.first, mid}, piece{mid, p.second}};
    };
    CHECK_THROWS_AS(weft::split(piece{0, 100000}, throwing_split).count(), std::runtime_error);
    const tree t(10000, 7, 2);
    const auto throwing_children = [&t](const std::size_t& x) {
      if (x == 9999) throw std::logic_error("children");
      return t.kids[x];
    };
    CHECK_THROWS_AS(weft::walk_tree_postfix(std::size_t{0}, throwing_children).count(),
                    std::logic_error);
    CHECK(weft::range(0, 100).sum() == 4950);
  });
}
