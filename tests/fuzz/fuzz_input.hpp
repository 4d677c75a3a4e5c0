// SPDX-License-Identifier: MIT
// Shared by the fuzz targets: the fuzzer's bytes read one at a time (zeros past the end), and
// the pools of 1, 2 and 7 threads that every input runs in. docs/testing.md#fuzzing
#pragma once

#include <weft/weft.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>

namespace weft_fuzz {

struct input {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t pos = 0;
  std::uint8_t byte() { return pos < size ? data[pos++] : 0; }
  std::size_t u16() { return byte() | (std::size_t{byte()} << 8); }
  bool done() const { return pos >= size; }
};

// The pool of 1, 2 or 7 threads that byte `b` picks, with the options `options(threads)`
// returns. Made once per process (and per Options type): a pool per input would spend the
// run starting threads.
template <class Options>
weft::thread_pool& pool_for(std::uint8_t b, Options options) {
  static weft::thread_pool one(options(1));
  static weft::thread_pool two(options(2));
  static weft::thread_pool seven(options(7));
  switch (b % 3) {
    case 0: return one;
    case 1: return two;
    default: return seven;
  }
}
inline weft::thread_pool& pool_for(std::uint8_t b) {
  return pool_for(b, [](std::size_t threads) {
    return weft::pool_options{.num_threads = threads};
  });
}

// A finding: print what differs and abort, so that libFuzzer keeps the input.
[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "weft fuzz: %s\n", what);
  std::abort();
}
inline void check(bool ok, const char* what) {
  if (!ok) fail(what);
}

}  // namespace weft_fuzz
