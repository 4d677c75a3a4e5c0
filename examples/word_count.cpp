// SPDX-License-Identifier: MIT
// word_count: total words and the 10 most frequent in a text file, counted chunk by chunk in
// parallel; per-chunk hash maps are merged with reduce. Usage: word_count <file> [chunk_bytes]
#include <weft/weft.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <ranges>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

// A word is a maximal run of ASCII letters, digits and apostrophes, compared lowercased.
bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\'';
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

struct counts {
  std::uint64_t words = 0;
  std::unordered_map<std::string, std::uint64_t> freq;
};

// Counts the words that *start* inside text[lo, hi). A word cut by the chunk's left edge belongs
// to the chunk on the left, which reads past its own right edge to finish it: every word is
// counted exactly once, whatever the chunk size.
counts count_chunk(std::string_view text, std::size_t lo, std::size_t hi) {
  counts out;
  std::size_t i = lo;
  if (i > 0 && is_word_char(text[i - 1]))
    while (i < hi && is_word_char(text[i])) ++i;
  while (i < hi) {
    if (!is_word_char(text[i])) {
      ++i;
      continue;
    }
    std::string word;
    for (; i < text.size() && is_word_char(text[i]); ++i) word += lower(text[i]);
    ++out.words;
    ++out.freq[std::move(word)];
  }
  return out;
}

// Associative merge: folds the smaller map into the larger one.
counts merge(counts a, counts b) {
  if (a.freq.size() < b.freq.size()) std::swap(a, b);
  a.words += b.words;
  for (auto& [word, n] : b.freq) a.freq[word] += n;
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <text file> [chunk_bytes]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "word_count: cannot open %s\n", argv[1]);
    return 1;
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::size_t chunk_bytes = argc > 2 ? std::stoul(argv[2]) : std::size_t{64} << 10;
  if (chunk_bytes == 0) {
    std::fprintf(stderr, "word_count: chunk_bytes must be > 0\n");
    return 2;
  }

  // Each chunk is a contiguous subrange of `text`; its offset locates it in the whole text.
  const std::string_view all = text;
  counts total = weft::iter(all)
                     .chunks(chunk_bytes)
                     .map([all](auto chunk) {
                       const auto lo = static_cast<std::size_t>(
                           std::to_address(std::ranges::begin(chunk)) - all.data());
                       return count_chunk(all, lo, lo + std::ranges::size(chunk));
                     })
                     .reduce(counts{}, merge);

  std::vector<std::pair<std::string, std::uint64_t>> top(total.freq.begin(), total.freq.end());
  const auto shown = std::min<std::size_t>(10, top.size());
  std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(shown), top.end(),
                    [](const auto& a, const auto& b) {
                      return a.second != b.second ? a.second > b.second : a.first < b.first;
                    });

  std::printf("words: %llu\nunique: %zu\n", static_cast<unsigned long long>(total.words),
              total.freq.size());
  for (std::size_t i = 0; i < shown; ++i)
    std::printf("%8llu %s\n", static_cast<unsigned long long>(top[i].second), top[i].first.c_str());
}
