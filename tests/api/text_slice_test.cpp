// SPDX-License-Identifier: MIT
// weft::str(text) and weft::slice(v) against plain sequential splitting loops: texts and
// vectors of 0, 1, 2, 1,000 and 100,003 elements, separators dense, sparse, at both ends and
// in runs, pieces longer than the blocks the pipeline reads in, pools of 1, 2 and 7 threads.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include "test_support.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using weft_test::on_every_pool;

constexpr std::size_t sizes[] = {0, 1, 2, 1000, 100003};


// Texts of n bytes from an alphabet where `sep_per_mille` of the bytes are from `seps`;
// the last two shapes put one long piece (longer than any block) in the middle.
std::vector<std::string> texts_of(std::size_t n, std::string_view seps) {
  std::vector<std::string> out;
  std::mt19937_64 rng(n * 31 + seps.size());
  for (int per_mille : {0, 5, 100, 500, 1000}) {
    std::string t(n, 'x');
    for (auto& c : t)
      c = static_cast<int>(rng() % 1000) < per_mille ? seps[rng() % seps.size()]
                                                      : static_cast<char>('a' + rng() % 26);
    out.push_back(t);
  }
  if (n >= 2) {
    std::string ends = out[2];
    ends.front() = seps[0];
    ends.back() = seps[0];
    out.push_back(ends);
    std::string long_piece = out[2];
    for (std::size_t i = n / 4; i < n - n / 4; ++i) long_piece[i] = 'q';
    out.push_back(long_piece);
  }
  return out;
}

std::vector<std::string_view> split_seq(std::string_view t, char sep, bool trailing) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= t.size(); ++i) {
    if (i == t.size() || t[i] == sep) {
      if (i < t.size() || trailing || start < t.size()) out.push_back(t.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::vector<std::string_view> lines_seq(std::string_view t) {
  auto out = split_seq(t, '\n', false);
  for (auto& l : out)
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return out;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::vector<std::string_view> words_seq(std::string_view t) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && is_space(t[i])) ++i;
    const std::size_t start = i;
    while (i < t.size() && !is_space(t[i])) ++i;
    if (i > start) out.push_back(t.substr(start, i - start));
  }
  return out;
}

// Positions within t of each view (they are views into t).
std::vector<std::pair<std::size_t, std::size_t>> extents(std::string_view t,
                                                         const std::vector<std::string_view>& v) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (auto s : v) out.emplace_back(static_cast<std::size_t>(s.data() - t.data()), s.size());
  return out;
}

}  // namespace

TEST_CASE("str lines split split_terminator split_whitespace as sequential loops",
          "[iter][text]") {
  on_every_pool([] {
    for (std::size_t n : sizes) {
      for (const std::string& t : texts_of(n, "\n\r,")) {
        const auto s = weft::str(t);
        CHECK(extents(t, s.lines().to_vector()) == extents(t, lines_seq(t)));
        CHECK(extents(t, s.split(',').to_vector()) == extents(t, split_seq(t, ',', true)));
        CHECK(extents(t, s.split_terminator(',').to_vector()) ==
              extents(t, split_seq(t, ',', false)));
        // A predicate separator takes the generic path (no memchr).
        CHECK(extents(t, s.split([](char c) { return c == '\n'; }).to_vector()) ==
              extents(t, split_seq(t, '\n', true)));
        CHECK(s.lines().count() == lines_seq(t).size());
        CHECK(s.lines().map([](std::string_view l) { return l.size(); }).sum() ==
              [&] {
                std::size_t total = 0;
                for (auto l : lines_seq(t)) total += l.size();
                return total;
              }());
      }
      for (const std::string& t : texts_of(n, " \t\n\r\v\f")) {
        CHECK(extents(t, weft::str(t).split_whitespace().to_vector()) ==
              extents(t, words_seq(t)));
      }
    }
  });
}

TEST_CASE("str matches match_indices bytes find_first", "[iter][text]") {
  on_every_pool([] {
    for (std::size_t n : sizes) {
      for (const std::string& t : texts_of(n, ",;")) {
        std::vector<std::size_t> commas;
        std::size_t separators = 0;
        for (std::size_t i = 0; i < t.size(); ++i) {
          if (t[i] == ',') commas.push_back(i);
          separators += t[i] == ',' || t[i] == ';';
        }
        const auto at = weft::str(t).match_indices(',').to_vector();
        std::vector<std::size_t> positions;
        std::size_t wrong_view = 0;
        for (const auto& [pos, view] : at) {
          positions.push_back(pos);
          wrong_view += view.data() != t.data() + pos || view != ",";
        }
        CHECK(positions == commas);
        CHECK(wrong_view == 0);
        CHECK(weft::str(t).matches([](char c) { return c == ',' || c == ';'; }).count() ==
              separators);
        CHECK(weft::str(t).bytes().count() == n);
        // A search stops where it should: the first piece longer than 3.
        const auto pieces = split_seq(t, ',', true);
        std::optional<std::string_view> expected;
        for (auto p : pieces)
          if (p.size() > 3) {
            expected = p;
            break;
          }
        const auto found =
            weft::str(t).split(',').find_first([](std::string_view p) { return p.size() > 3; });
        CHECK(found.has_value() == expected.has_value());
        if (found && expected) CHECK(found->data() == expected->data());
      }
    }
  });
}

TEST_CASE("slice split chunk_by chunks_exact rchunks rchunks_exact", "[iter][slice]") {
  on_every_pool([] {
    for (std::size_t n : sizes) {
      std::mt19937 rng(static_cast<unsigned>(n));
      for (unsigned spread : {1u, 3u, 100u}) {
        std::vector<int> v(n);
        for (auto& x : v) x = static_cast<int>(rng() % spread);
        using run = std::pair<std::size_t, std::size_t>;
        const auto where = [&v](std::span<int> r) {
          return run{static_cast<std::size_t>(r.data() - v.data()), r.size()};
        };
        // split at zeros.
        std::vector<run> expected;
        std::size_t start = 0;
        for (std::size_t i = 0; i <= n; ++i)
          if (i == n || v[i] == 0) {
            expected.emplace_back(start, i - start);
            start = i + 1;
          }
        CHECK(weft::slice(v).split([](int x) { return x == 0; }).map(where).to_vector() ==
              expected);
        // chunk_by equal neighbours.
        expected.clear();
        for (std::size_t i = 0; i < n;) {
          std::size_t j = i + 1;
          while (j < n && v[j] == v[j - 1]) ++j;
          expected.emplace_back(i, j - i);
          i = j;
        }
        CHECK(weft::slice(v).chunk_by(std::equal_to<>{}).map(where).to_vector() == expected);
        for (std::size_t k : {std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
          expected.clear();
          for (std::size_t lo = 0; lo + k <= n; lo += k) expected.emplace_back(lo, k);
          CHECK(weft::slice(v).chunks_exact(k).map(where).to_vector() == expected);
          CHECK(weft::slice(v).remainder_of_exact(k).size() == n % k);
          expected.clear();
          for (std::size_t hi = n; hi > 0; hi -= std::min(hi, k))
            expected.emplace_back(hi - std::min(hi, k), std::min(hi, k));
          CHECK(weft::slice(v).rchunks(k).map(where).to_vector() == expected);
          expected.clear();
          for (std::size_t hi = n; hi >= k; hi -= k) expected.emplace_back(hi - k, k);
          CHECK(weft::slice(v).rchunks_exact(k).map(where).to_vector() == expected);
        }
      }
      // Runs of a mutable vector are writable: each run of equal elements numbered by its
      // length.
      std::vector<int> w(n);
      for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<int>(i / 3);
      weft::slice(w).chunk_by(std::equal_to<>{}).for_each([](std::span<int> r) {
        for (int& x : r) x = static_cast<int>(r.size());
      });
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i)
        wrong += w[i] != static_cast<int>(std::min<std::size_t>(3, n - i / 3 * 3));
      CHECK(wrong == 0);
    }
    std::vector<int> some{1, 2};
    CHECK_THROWS_AS(weft::slice(some).chunks_exact(0), std::invalid_argument);
    CHECK_THROWS_AS(weft::slice(some).rchunks(0), std::invalid_argument);
  });
}

namespace {

// A lossy UTF-8 decoder, one char at a time: a lead byte takes the continuation bytes after
// it up to its declared length; a piece that is not a whole well-formed sequence, and each
// byte that cannot start one, is U+FFFD.
std::vector<char32_t> decode_seq(std::string_view t) {
  const auto cont = [](unsigned char b) { return (b & 0xC0) == 0x80; };
  std::vector<char32_t> out;
  std::size_t i = 0;
  while (i < t.size()) {
    const auto b = static_cast<unsigned char>(t[i]);
    std::size_t len = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3
                                : b >= 0xF0 && b <= 0xF4   ? 4 : 0;
    if (len <= 1) {
      out.push_back(len == 1 ? char32_t{b} : char32_t{0xFFFD});
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < t.size() && j < i + len && cont(static_cast<unsigned char>(t[j]))) ++j;
    char32_t c = 0xFFFD;
    if (j - i == len) {
      char32_t v = b & (0x7F >> len);
      for (std::size_t k = i + 1; k < j; ++k) v = (v << 6) | (static_cast<unsigned char>(t[k]) & 0x3F);
      const char32_t least = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
      if (v >= least && v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF)) c = v;
    }
    out.push_back(c);
    i = j;
  }
  return out;
}

}  // namespace

TEST_CASE("str chars decodes UTF-8 as a sequential lossy decoder", "[iter][text]") {
  const std::string pieces[] = {"a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x80",
                                "\xC3", "\xE2\x82", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                "\xFF", " "};
  on_every_pool([&] {
    for (std::size_t n : sizes) {
      for (unsigned malformed : {0u, 3u, 12u}) {
        std::mt19937 rng(static_cast<unsigned>(n + malformed));
        std::string t;
        while (t.size() < n) {
          const std::size_t k = rng() % 12;
          t += pieces[k < 4 || k == 11 || rng() % 12 < malformed ? k : 0];
        }
        t.resize(n);  // may cut a sequence short at the end
        CHECK(weft::str(t).chars().to_vector() == decode_seq(t));
        CHECK(weft::str(t).chars().count() == decode_seq(t).size());
      }
    }
  });
}
