// SPDX-License-Identifier: MIT
// Helpers every workload shares: clocks, medians, process CPU time, peer tables, progress.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "turn_buffer.hpp"

// A peer that was not built (its runtime is missing) has a null entry and prints "n/a".
#ifdef WEFT_BENCH_HAVE_TBB
#define WEFT_BENCH_IF_TBB(x) (x)
#else
#define WEFT_BENCH_IF_TBB(x) nullptr
#endif
#ifdef WEFT_BENCH_HAVE_OMP
#define WEFT_BENCH_IF_OMP(x) (x)
#else
#define WEFT_BENCH_IF_OMP(x) nullptr
#endif
// std::execution::par: libstdc++ runs it on oneTBB, so it is built only when TBB is found.
#ifdef WEFT_BENCH_HAVE_STDPAR
#define WEFT_BENCH_IF_STDPAR(x) (x)
#else
#define WEFT_BENCH_IF_STDPAR(x) nullptr
#endif

namespace weft_bench {

template <class Fn>
struct peer {
  const char* name;
  Fn* run;  // nullptr: not built
};

// The peer table of a workload with the usual five peers, in the order every table prints.
// A peer whose runtime was not built is dropped here, while the table is made at compile time
// (declare it constexpr), so that no object file refers to the peer's missing definition.
template <class Fn>
constexpr std::array<peer<Fn>, 5> standard_peers(Fn* seq, Fn* weft, [[maybe_unused]] Fn* tbb,
                                                 [[maybe_unused]] Fn* stdpar,
                                                 [[maybe_unused]] Fn* omp) {
  return {{{"seq", seq},
           {"weft", weft},
           {"tbb", WEFT_BENCH_IF_TBB(tbb)},
           {"stdpar", WEFT_BENCH_IF_STDPAR(stdpar)},
           {"omp", WEFT_BENCH_IF_OMP(omp)}}};
}

// `table` with one more peer in front of its entry `at`: a second sequential loop, a second
// weft entry point.
template <class Fn, std::size_t N>
constexpr std::array<peer<Fn>, N + 1> with_peer(const std::array<peer<Fn>, N>& table,
                                                std::size_t at, peer<Fn> extra) {
  std::array<peer<Fn>, N + 1> out{};
  for (std::size_t i = 0, j = 0; i <= N; ++i) out[i] = i == at ? extra : table[j++];
  return out;
}

inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

inline double max_of(const std::vector<double>& v) {
  return v.empty() ? std::nan("") : *std::max_element(v.begin(), v.end());
}

// A call whose warm-up took this long is not repeated: the warm-up is its only sample. On a
// 16-core machine OpenMP's fib took 6.9 s a call at 2 threads and 13.4 s at 4, and the
// repeats of such a peer would take the whole run's time; at seconds a call, what a warm-up
// absorbs (first-touch, thread start-up) is noise.
inline constexpr std::int64_t single_sample_ns = 2'000'000'000;

// Runs the warm-up call `f`. True, with its time appended to `ns`, when it took
// single_sample_ns or more and is therefore the only sample.
template <class F>
bool warm_up_is_only_sample(std::vector<double>& ns, F&& f) {
  const std::int64_t t0 = now_ns();
  f();
  const std::int64_t took = now_ns() - t0;
  if (took < single_sample_ns) return false;
  ns.push_back(static_cast<double>(took));
  return true;
}

// One untimed warm-up (first-touch, thread start-up), then `reps` timed calls in ns (or the
// warm-up alone, timed, past single_sample_ns).
template <class F>
std::vector<double> time_reps(int reps, F&& f) {
  std::vector<double> out;
  if (warm_up_is_only_sample(out, f)) return out;
  out.reserve(static_cast<std::size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    const std::int64_t t0 = now_ns();
    f();
    out.push_back(static_cast<double>(now_ns() - t0));
  }
  return out;
}

// `threads` copies of `copy()` at once, one per std::thread (main runs one): the wall time of
// all of them per rep, after one untimed warm-up. Against one copy it shows how much parallel
// speedup this machine gives this code right now (shared or throttled cores give less).
// Helpers start once and meet main at a barrier per rep: thread start-up is not timed.
template <class F>
std::vector<double> time_copies(int threads, int reps, F copy) {
  std::barrier<> sync(threads);
  std::vector<std::jthread> helpers;
  for (int i = 1; i < threads; ++i)
    helpers.emplace_back([&] {
      for (int rep = 0; rep <= reps; ++rep) {
        sync.arrive_and_wait();
        copy();
        sync.arrive_and_wait();
      }
    });
  return time_reps(reps, [&] {
    sync.arrive_and_wait();
    copy();
    sync.arrive_and_wait();
  });
}

// What a peer of an iterator workload returns: wall ns of each timed sample and the result
// of its last call, which the runner checks against the sequential peer's.
template <class R>
struct timed {
  std::vector<double> ns;
  R result{};
  int calls = 0;  // calls of the timed function, warm-up included (set by time_calls)
};

// Keeps a result alive so the optimizer cannot drop the work that produced it.
template <class T>
inline void keep(const T& value) noexcept {
  if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(void*))
    asm volatile("" : : "r,m"(value) : "memory");
  else
    asm volatile("" : : "r"(&value) : "memory");
}

// Short calls are timed more often than asked: a turn of time_calls goes on past its `reps`
// calls while they total under min_turn_ns (up to max_turn_calls). A median of five
// 0.1 ms samples moved by a third from one run to the next on the reference VM; the same
// 20 ms of such a call gives it a couple of hundred samples per turn.
inline constexpr std::int64_t min_turn_ns = 20'000'000;
inline constexpr int max_turn_calls = 1000;

// As time_reps, for a call that returns its result: one untimed warm-up, then at least `reps`
// timed calls and more while they total under min_turn_ns (or the warm-up alone, timed, past
// single_sample_ns).
template <class F>
auto time_calls(int reps, F&& f) {
  timed<std::remove_cvref_t<decltype(f())>> out;
  out.calls = 1;
  if (warm_up_is_only_sample(out.ns, [&] { out.result = f(); })) return out;
  out.ns.reserve(static_cast<std::size_t>(reps));
  std::int64_t total = 0;
  for (int i = 0; i < reps || (total < min_turn_ns && i < max_turn_calls); ++i) {
    const std::int64_t t0 = now_ns();
    auto r = f();
    const std::int64_t t1 = now_ns();
    keep(r);
    total += t1 - t0;
    ++out.calls;
    out.ns.push_back(static_cast<double>(t1 - t0));
    out.result = std::move(r);  // frees the previous result outside the timed region
  }
  return out;
}

// For the sorts: one untimed warm-up, then `reps` calls of sort(v) (more while they total
// under min_turn_ns, as time_calls), each on a fresh copy of `in` made outside the timing
// into the turn's buffer (a turn_buffer: memory kept from the turn before), or the warm-up
// alone, timed, past single_sample_ns; the result is checksum(v) of the last sorted copy.
template <class T, class Checksum, class Sort>
timed<std::uint64_t> time_sorts(const std::vector<T>& in, int reps, Checksum&& checksum,
                                Sort&& sort) {
  timed<std::uint64_t> out;
  turn_buffer<T> v(in.begin(), in.end());
  if (warm_up_is_only_sample(out.ns, [&] { sort(v); })) reps = 0;
  std::int64_t total = 0;
  for (int i = 0; i < reps || (reps > 0 && total < min_turn_ns && i < max_turn_calls); ++i) {
    std::copy(in.begin(), in.end(), v.begin());
    const std::int64_t t0 = now_ns();
    sort(v);
    const std::int64_t took = now_ns() - t0;
    total += took;
    out.ns.push_back(static_cast<double>(took));
  }
  out.result = checksum(v);
  return out;
}

// user + sys CPU time of the whole process (every thread of every runtime), in ns.
inline std::int64_t process_cpu_ns(int who = RUSAGE_SELF) noexcept {
  rusage ru{};
  getrusage(who, &ru);
  const auto us = [](const timeval& t) {
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000 + t.tv_usec;
  };
  return (us(ru.ru_utime) + us(ru.ru_stime)) * 1000;
}

// CPU time of every thread of the process but the caller's, in ns.
inline std::int64_t others_cpu_ns() noexcept {
  return process_cpu_ns(RUSAGE_SELF) - process_cpu_ns(RUSAGE_THREAD);
}

// Waits until every other thread of the process is idle: until one `quiet_window` of the
// caller sees them use under a tenth of it in CPU time, or `quiet_cap` passed. Returns the
// ms waited. Every table calls it before each peer's turn (start_turn): after a turn the
// previous runtime's threads may still spin (libgomp's for milliseconds after a parallel
// region, oneTBB's for less), and with two vCPUs a spinning thread takes one from whoever
// runs next: weft's find_if @2t read 129 us after OpenMP's turn against 95 us with
// OMP_WAIT_POLICY=passive (docs/decisions/0009-benchmark-method.md). The caller spins
// through the window rather than sleep: a sleep lets both vCPUs go idle, and a pool that
// starts right after it finds its threads' CPUs cold (async_fib(25) @2t read 1.00-1.13x
// its @1 time after sleeping windows, 0.66x after spinning ones, in one binary).
inline constexpr std::chrono::microseconds quiet_window{2000};
inline constexpr std::chrono::milliseconds quiet_cap{200};
inline double wait_until_quiet() {
  const std::int64_t start = now_ns();
  const std::int64_t cap = std::chrono::nanoseconds(quiet_cap).count();
  const std::int64_t window = std::chrono::nanoseconds(quiet_window).count();
  while (now_ns() - start < cap) {
    const std::int64_t c0 = others_cpu_ns();
    const std::int64_t t0 = now_ns();
    while (now_ns() - t0 < window) {
    }
    if ((others_cpu_ns() - c0) * 10 < now_ns() - t0) break;
  }
  return static_cast<double>(now_ns() - start) / 1e6;
}

// How many of a workload's peers were built (the others print "n/a" and take no step).
template <class Peers>
constexpr int built(const Peers& peers) noexcept {
  int n = 0;
  for (const auto& p : peers) n += p.run != nullptr ? 1 : 0;
  return n;
}

// Progress on stderr, one step per (workload, peer, thread count), with the time since the
// start and an estimate of the time left:
// "[ 7/42] sum_sq         tbb          2 threads ...  0:41, about 3:20 left". Rewritten in
// place on a terminal, one line per step otherwise; stdout carries only the tables.
struct progress_counter {
  int done = 0;
  int total = 0;  // set once by the runner from the peers and thread counts it will run
  std::int64_t start_ns = 0;
};

inline progress_counter& progress_state() noexcept {
  static progress_counter c;
  return c;
}

inline void progress_plan(int total) noexcept { progress_state() = {0, total, now_ns()}; }

// "4:05" or "1:02:03".
inline std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

// The elapsed time and, once a step has finished, the time left if the remaining steps take
// as long on average as the finished ones (steps differ, so it is an estimate).
inline std::string progress_times(const progress_counter& c) {
  const double elapsed = static_cast<double>(now_ns() - c.start_ns) / 1e9;
  std::string out = "  " + clock_text(elapsed);
  const int finished = c.done - 1;  // the step being announced has not run yet
  if (finished >= 1 && c.total > finished)
    out += ", about " + clock_text(elapsed / finished * (c.total - finished)) + " left";
  return out;
}

// A status line without a new step (a machine check, an extra measurement).
inline void progress_note(const std::string& workload, const std::string& what) {
  static const bool tty = isatty(STDERR_FILENO) != 0;
  const progress_counter& c = progress_state();
  const int width = static_cast<int>(std::to_string(c.total).size());
  std::fprintf(stderr, "%s[%*d/%d] %-14s %s ...%s%s", tty ? "\r\033[K" : "", width, c.done,
               c.total, workload.c_str(), what.c_str(), progress_times(c).c_str(),
               tty ? "" : "\n");
  std::fflush(stderr);
}

inline void progress_step(const std::string& workload, const std::string& peer, int threads) {
  ++progress_state().done;
  char what[64];
  std::snprintf(what, sizeof what, "%-11s %2d thread%s", peer.c_str(), threads,
                threads == 1 ? "" : "s");
  progress_note(workload, what);
}

// The peer that takes turn `k` of round `round` among `count` peers: the first opens every
// round, the others follow in an order rotated by one each round, so that no peer always
// runs right after another (docs/decisions/0009-benchmark-method.md).
constexpr std::size_t peer_of_turn(std::size_t k, std::size_t round, std::size_t count) noexcept {
  return k == 0 ? 0 : 1 + (k - 1 + round) % (count - 1);
}

// The start of a peer's turn at a table: its progress line, then wait_until_quiet, so that
// no runtime's threads still spin from the turn before. Returns the ms waited.
inline double start_turn(const std::string& workload, const std::string& peer, int threads) {
  progress_step(workload, peer, threads);
  return wait_until_quiet();
}

// Clears the status line before a table is printed (a terminal shows both streams).
inline void progress_done() {
  if (isatty(STDERR_FILENO) != 0) std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace weft_bench
