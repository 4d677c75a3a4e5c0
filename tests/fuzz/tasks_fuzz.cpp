// SPDX-License-Identifier: MIT
// libFuzzer target: task parallelism. The input is a tree of tasks, parsed before anything
// runs: leaves (a value, a little work, maybe an exception) under join, n-ary join, scope
// and scope_fifo (flat or each task spawning the next), task_group (with run_and_wait, and
// canceled by cancel() or a stop token, then reused), async with get, then and when_all,
// isolate, broadcast, a scope stopped by a stop token (from the body or from a task), and
// detached spawn and spawn_fifo (each kid checked after the pool's wait_idle). It runs in a
// pool of 1, 2 or 7 threads, made once per process, so that each input meets the state the
// earlier ones left (worker 0's deque among it). Checks what docs/guide.md#tasks promises:
// every call returns the value its subtree computes sequentially, or rethrows an exception
// thrown inside that subtree, which it must when a thrower there is sure to run; nothing is
// skipped unless a cancellation allows it, and what is spawned after a stop or a cancel
// never starts; weft::stop_requested() is true in a task of a stopped scope; broadcast runs
// once on every thread; a reused task group completes; a detached task runs once, and its
// exception reaches the pool's handler. A hang is libFuzzer's -timeout: the inputs of then
// and when_all wait inside their bodies as any subtree does, and their continuations must
// not run beneath them; wait_idle returns once every detached task has run.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <stop_token>
#include <tuple>
#include <vector>

#include "fuzz_input.hpp"

namespace {

using weft_fuzz::check;

struct thrown {
  int leaf;
};

enum class kind : std::uint8_t {
  leaf, join, join3, scope, scope_fifo, task_group, group_canceled, async, then, when_all,
  isolate, broadcast, stopped_scope, detached, count
};

constexpr int max_depth = 6;
constexpr std::size_t max_nodes = 160;
constexpr std::size_t max_kids = 5;

// One node of the parsed tree. `expected`: the value its subtree computes when nothing
// throws. `may_throw`: an exception can come out of it; `must_throw`: one must (a thrower
// below it is sure to run: no cancellation above it in the subtree). Thrower leaves of a
// subtree have ids in [leaf_begin, leaf_end).
struct node {
  kind k = kind::leaf;
  std::uint64_t value = 0;  // a leaf's value, a broadcast's base
  bool throws = false;      // a leaf that throws
  unsigned spin = 0;        // a leaf's work, in loop turns
  unsigned param = 0;       // variant bits and positions, by kind
  std::vector<std::size_t> kids;
  int leaf_begin = 0, leaf_end = 0;
  std::uint64_t expected = 0;
  bool may_throw = false, must_throw = false;
};

std::uint64_t mix(std::uint64_t a, std::uint64_t b) { return a * 1000003u + b + 0x9e37u; }

// Constructs that report through their own checks and return a fixed value.
constexpr std::uint64_t checked_inside = 0x5eed;

struct program {
  std::vector<node> nodes;
  int leaves = 0;

  std::size_t parse(weft_fuzz::input& in, int depth) {
    const std::size_t id = nodes.size();
    nodes.emplace_back();
    const std::uint8_t b = in.byte();
    kind k = static_cast<kind>(b % static_cast<unsigned>(kind::count));
    if (depth >= max_depth || nodes.size() >= max_nodes || in.done()) k = kind::leaf;
    nodes[id].k = k;
    nodes[id].param = in.byte();
    nodes[id].leaf_begin = leaves;
    if (k == kind::leaf || k == kind::broadcast) {
      nodes[id].value = in.u16();
      nodes[id].throws = k == kind::leaf && nodes[id].param % 8 == 0;
      nodes[id].spin = (nodes[id].param >> 3) * 8u;
      ++leaves;
    } else {
      std::size_t n = 1;
      switch (k) {
        case kind::join: case kind::async: case kind::when_all: n = 2; break;
        case kind::join3: n = 3; break;
        case kind::scope: case kind::scope_fifo: case kind::task_group:
        case kind::group_canceled: case kind::stopped_scope: case kind::detached:
          n = 1 + in.byte() % max_kids;
          break;
        default: n = 1;
      }
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t kid = parse(in, depth + 1);
        nodes[id].kids.push_back(kid);
      }
    }
    nodes[id].leaf_end = leaves;
    summarize(nodes[id]);
    return id;
  }

  void summarize(node& n) {
    auto kid = [&](std::size_t i) -> const node& { return nodes[n.kids[i]]; };
    bool any_may = false, any_must = false;
    for (std::size_t i = 0; i < n.kids.size(); ++i) {
      any_may = any_may || kid(i).may_throw;
      any_must = any_must || kid(i).must_throw;
    }
    n.may_throw = any_may;
    n.must_throw = any_must;
    switch (n.k) {
      case kind::leaf:
        n.expected = n.value;
        n.may_throw = n.must_throw = n.throws;
        break;
      case kind::broadcast: n.expected = n.value; break;
      case kind::join: case kind::async: case kind::when_all:
        n.expected = mix(kid(0).expected, kid(1).expected);
        break;
      case kind::join3:
        n.expected = mix(mix(kid(0).expected, kid(1).expected), kid(2).expected);
        break;
      case kind::scope: case kind::scope_fifo: case kind::task_group: {
        std::uint64_t e = 0;
        for (std::size_t i = 0; i < n.kids.size(); ++i) e = mix(e, kid(i).expected);
        n.expected = e;
        break;
      }
      case kind::then: n.expected = kid(0).expected * 31 + 7; break;
      case kind::isolate: n.expected = kid(0).expected; break;
      case kind::group_canceled: case kind::stopped_scope:
        n.expected = checked_inside;
        n.must_throw = false;  // the thrower may be skipped
        break;
      case kind::detached:  // its kids report to the pool, checked after wait_idle
        n.expected = checked_inside;
        n.may_throw = n.must_throw = false;
        break;
      case kind::count: break;
    }
  }
};

// What a detached kid did, read after the pool's wait_idle().
struct detached_outcome {
  bool spawned = false;
  std::atomic<int> runs{0};
  std::atomic<bool> returned{false};
  std::uint64_t value = 0;
};

// Exceptions that escaped detached tasks, counted by the fuzz pools' handler.
std::atomic<long> detached_exceptions{0};

// The fuzz pools, with a handler that counts what escapes detached tasks.
weft::thread_pool& tasks_pool_for(std::uint8_t b) {
  return weft_fuzz::pool_for(b, [](std::size_t threads) {
    weft::pool_options o;
    o.num_threads = threads;
    o.on_task_exception = [](std::exception_ptr e) {
      try {
        std::rethrow_exception(e);
      } catch (const thrown&) {
        detached_exceptions.fetch_add(1, std::memory_order_relaxed);
      } catch (...) {
        weft_fuzz::fail("a detached task threw something no leaf throws");
      }
    };
    return o;
  });
}

struct runner {
  const program& p;
  std::vector<detached_outcome>& detached;

  const node& at(std::size_t i) const { return p.nodes[i]; }

  // Runs node i and checks its outcome against what the tree says.
  std::uint64_t run(std::size_t i) {
    const node& n = at(i);
    try {
      const std::uint64_t r = compute(n);
      check(!n.must_throw, "a subtree with a thrower sure to run returned");
      check(r == n.expected, "a subtree returned another value than sequentially");
      return r;
    } catch (const thrown& t) {
      check(n.may_throw, "an exception came out of a subtree that cannot throw");
      check(t.leaf >= n.leaf_begin && t.leaf < n.leaf_end, "an exception from outside the subtree");
      throw;
    }
  }

  std::uint64_t leaf(const node& n) {
    volatile unsigned sink = 0;
    for (unsigned s = 0; s < n.spin; ++s) sink = sink + s;
    if (n.throws) throw thrown{n.leaf_begin};
    return n.value;
  }

  std::uint64_t all_kids(const node& n, const std::vector<std::uint64_t>& got) const {
    std::uint64_t e = 0;
    for (std::size_t i = 0; i < n.kids.size(); ++i) e = mix(e, got[i]);
    return e;
  }

  std::uint64_t compute(const node& n) {
    const std::vector<std::size_t>& kids = n.kids;
    switch (n.k) {
      case kind::leaf: return leaf(n);
      case kind::join: {
        auto [a, b] = weft::join([&] { return run(kids[0]); }, [&] { return run(kids[1]); });
        return mix(a, b);
      }
      case kind::join3: {
        auto [a, b, c] = weft::join([&] { return run(kids[0]); }, [&] { return run(kids[1]); },
                                    [&] { return run(kids[2]); });
        return mix(mix(a, b), c);
      }
      case kind::scope: return scope_of(n);
      case kind::scope_fifo: return scope_fifo_of(n);
      case kind::task_group: return group_of(n);
      case kind::group_canceled: return group_canceled(n);
      case kind::async: {
        weft::future<std::uint64_t> f = weft::async([&] { return run(kids[0]); });
        const std::uint64_t b = run(kids[1]);  // if it throws, f's destructor waits for f
        return mix(f.get(), b);
      }
      case kind::then:
        return weft::async([&] { return run(kids[0]); })
            .then([](std::uint64_t x) { return x * 31 + 7; })
            .get();
      case kind::when_all: {
        auto input = [this](std::size_t kid) {
          return weft::async([this, kid] { return run(kid); });
        };
        auto [a, b] = weft::when_all(input(kids[0]), input(kids[1])).get();
        return mix(a, b);
      }
      case kind::isolate: return weft::isolate([&] { return run(kids[0]); });
      case kind::broadcast: {
        const std::uint64_t base = n.value;
        std::vector<std::uint64_t> r = weft::broadcast([base](std::size_t t) { return base + t; });
        check(r.size() == weft::num_threads(), "broadcast: not one result per thread");
        for (std::size_t t = 0; t < r.size(); ++t)
          check(r[t] == base + t, "broadcast: a thread's result is not its own");
        return base;
      }
      case kind::stopped_scope: return stopped_scope(n);
      case kind::detached: return spawn_detached(n);
      case kind::count: break;
    }
    weft_fuzz::fail("unknown node");
  }

  // Flat: the body spawns every kid. Chained: each kid's task spawns the next kid's first.
  std::uint64_t scope_of(const node& n) {
    std::vector<std::uint64_t> got(n.kids.size());
    if (n.param & 1) {
      weft::scope([&](weft::task_scope& s) {
        for (std::size_t i = 0; i < n.kids.size(); ++i)
          s.spawn([&, i] { got[i] = run(n.kids[i]); });
      });
    } else {
      struct chain {
        runner* self;
        const node* n;
        std::vector<std::uint64_t>* got;
        void operator()(weft::task_scope& s, std::size_t i) const {
          if (i + 1 < n->kids.size())
            s.spawn([c = *this, i](weft::task_scope& s2) { c(s2, i + 1); });
          (*got)[i] = self->run(n->kids[i]);
        }
      };
      weft::scope([&](weft::task_scope& s) { chain{this, &n, &got}(s, 0); });
    }
    return all_kids(n, got);
  }

  std::uint64_t scope_fifo_of(const node& n) {
    std::vector<std::uint64_t> got(n.kids.size());
    weft::scope_fifo([&](weft::task_scope_fifo& s) {
      for (std::size_t i = 0; i < n.kids.size(); ++i)
        s.spawn_fifo([&, i] { got[i] = run(n.kids[i]); });
    });
    return all_kids(n, got);
  }

  std::uint64_t group_of(const node& n) {
    std::vector<std::uint64_t> got(n.kids.size());
    weft::task_group g;
    const std::size_t last = n.kids.size() - 1;
    for (std::size_t i = 0; i < last; ++i) g.run([&, i] { got[i] = run(n.kids[i]); });
    weft::task_group_status status;
    if (n.param & 1) {
      status = g.run_and_wait([&] { got[last] = run(n.kids[last]); });
    } else {
      g.run([&] { got[last] = run(n.kids[last]); });
      status = g.wait();
    }
    check(status == weft::task_group_status::complete, "task_group: canceled without a cancel");
    return all_kids(n, got);
  }

  // Canceled after `at` kids were run (by cancel(), or by a stop token): the kids run after
  // that never start; wait() says canceled; the group then runs a task again (by cancel()
  // only: a stopped token keeps it canceled).
  std::uint64_t group_canceled(const node& n) {
    const std::size_t at = (n.param >> 1) % (n.kids.size() + 1);
    const bool by_token = n.param & 1;
    std::stop_source stop;
    std::vector<std::atomic<bool>> ran(n.kids.size());
    std::optional<weft::task_group> g;
    if (by_token)
      g.emplace(stop.get_token());
    else
      g.emplace();
    for (std::size_t i = 0; i < n.kids.size(); ++i) {
      if (i == at) by_token ? (void)stop.request_stop() : g->cancel();
      g->run([&, i] {
        ran[i].store(true, std::memory_order_relaxed);
        run(n.kids[i]);
      });
    }
    if (at == n.kids.size()) by_token ? (void)stop.request_stop() : g->cancel();
    check(g->wait() == weft::task_group_status::canceled, "task_group: cancel not reported");
    for (std::size_t i = at; i < n.kids.size(); ++i)
      check(!ran[i].load(std::memory_order_relaxed), "task_group: a task run after cancel started");
    if (!by_token) {
      bool again = false;
      g->run([&] { again = true; });
      check(g->wait() == weft::task_group_status::complete && again,
            "task_group: not reusable after a canceled wait");
    }
    return checked_inside;
  }

  // Every kid spawned detached (weft::spawn, or spawn_fifo), none waited for here: each
  // records its outcome, and an exception goes on to the pool's handler.
  std::uint64_t spawn_detached(const node& n) {
    for (std::size_t kid : n.kids) {
      detached[kid].spawned = true;
      auto task = [this, kid] {
        detached_outcome& out = detached[kid];
        out.runs.fetch_add(1, std::memory_order_relaxed);
        out.value = run(kid);
        out.returned.store(true, std::memory_order_relaxed);
      };
      if (n.param & 1)
        weft::spawn_fifo(task);
      else
        weft::spawn(task);
    }
    return checked_inside;
  }

  // After wait_idle: every detached kid ran once (its parent ran), and returned its value or
  // threw (to the handler); one whose thrower is sure to run threw.
  long check_detached() const {
    long threw = 0;
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
      const int runs = detached[i].runs.load(std::memory_order_relaxed);
      check(runs == (detached[i].spawned ? 1 : 0), "a detached task ran twice, or never");
      if (runs == 0) continue;
      if (detached[i].returned.load(std::memory_order_relaxed)) {
        check(detached[i].value == at(i).expected, "a detached task computed another value");
      } else {
        check(at(i).may_throw, "a detached task neither returned nor may throw");
        ++threw;
      }
    }
    return threw;
  }

  // A scope with a stop token, stopped by the body before it spawns kid `at`, or by kid
  // `at`'s task when it starts (which then sees weft::stop_requested()).
  std::uint64_t stopped_scope(const node& n) {
    const std::size_t at = (n.param >> 1) % n.kids.size();
    const bool from_task = n.param & 1;
    std::stop_source stop;
    std::vector<std::atomic<bool>> ran(n.kids.size());
    weft::scope(stop.get_token(), [&](weft::task_scope& s) {
      for (std::size_t i = 0; i < n.kids.size(); ++i) {
        if (!from_task && i == at) stop.request_stop();
        s.spawn([&, i] {
          ran[i].store(true, std::memory_order_relaxed);
          if (from_task && i == at) {
            stop.request_stop();
            check(weft::stop_requested(), "stop_requested() false in a task of a stopped scope");
          }
          run(n.kids[i]);
        });
      }
    });
    check(stop.stop_requested(), "the stop was lost");
    if (!from_task) {
      for (std::size_t i = at; i < n.kids.size(); ++i)
        check(!ran[i].load(std::memory_order_relaxed), "a task spawned after the stop started");
    }
    return checked_inside;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  weft_fuzz::input in{data, size};
  weft::thread_pool& pool = tasks_pool_for(in.byte());
  program p;
  const std::size_t root = p.parse(in, 0);
  std::vector<detached_outcome> detached(p.nodes.size());
  runner r{p, detached};
  const long exceptions_before = detached_exceptions.load(std::memory_order_relaxed);
  try {
    pool.install([&] { return r.run(root); });
  } catch (const thrown&) {
    // run() checked that the root may throw this one.
  }
  pool.wait_idle();
  const long threw = r.check_detached();
  check(detached_exceptions.load(std::memory_order_relaxed) - exceptions_before == threw,
        "an exception of a detached task did not reach the pool's handler");
  return 0;
}
