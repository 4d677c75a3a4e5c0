// SPDX-License-Identifier: MIT
// n-queens on weft: weft::scope with one spawn per placement, the same with weft::task_group;
// and nested joins over the candidate columns, for comparison.
#include <weft/weft.hpp>

#include "nqueens/config.hpp"

namespace weft_bench::nqueens {
namespace {

// A task: place the queens of one board's row, spawning one task per free column.
struct place_task {
  solution_counts* solutions;
  int n;
  board b;
  void operator()(weft::task_scope& s) const {
    if (b.row == n) {
      solutions->add_one(*weft::thread_index());
      return;
    }
    for (unsigned avail = b.free_columns(n); avail != 0; avail &= avail - 1)
      s.spawn(place_task{solutions, n, b.place(avail & (0u - avail))});
  }
};

long search_scope(int n) {
  solution_counts solutions;
  weft::scope([&](weft::task_scope& s) { place_task{&solutions, n, board{0, 0, 0, 0}}(s); });
  return solutions.total();
}

// The same search written against weft::task_group, as a oneTBB user writes it.
void place_in_group(weft::task_group& g, solution_counts& solutions, int n, const board& b) {
  if (b.row == n) {
    solutions.add_one(*weft::thread_index());
    return;
  }
  for (unsigned avail = b.free_columns(n); avail != 0; avail &= avail - 1) {
    const board next = b.place(avail & (0u - avail));
    g.run([&g, &solutions, n, next] { place_in_group(g, solutions, n, next); });
  }
}

long search_task_group(int n) {
  solution_counts solutions;
  weft::task_group g;
  place_in_group(g, solutions, n, board{0, 0, 0, 0});
  g.wait();
  return solutions.total();
}

long search_join(int n, board b);

// The free columns `set` of board b, split in halves by join down to one column each.
long search_columns(int n, board b, unsigned set) {
  if ((set & (set - 1)) == 0) return search_join(n, b.place(set));
  unsigned low = 0, rest = set;
  for (int k = __builtin_popcount(set) / 2; k > 0; --k) {
    low |= rest & (0u - rest);
    rest &= rest - 1;
  }
  auto [x, y] = weft::join([&] { return search_columns(n, b, low); },
                           [&] { return search_columns(n, b, rest); });
  return x + y;
}

long search_join(int n, board b) {
  if (b.row == n) return 1;
  const unsigned avail = b.free_columns(n);
  return avail == 0 ? 0 : search_columns(n, b, avail);
}

}  // namespace

std::vector<double> run_weft(int n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return time_reps(reps, [&] {
    const long r = pool.install([n] { return search_scope(n); });
    keep(r);
    check("weft", n, r);
  });
}

std::vector<double> run_weft_task_group(int n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return time_reps(reps, [&] {
    const long r = pool.install([n] { return search_task_group(n); });
    keep(r);
    check("weft-tg", n, r);
  });
}

std::vector<double> run_weft_join(int n, int threads, int reps) {
  weft::thread_pool pool({.num_threads = static_cast<std::size_t>(threads)});
  return time_reps(reps, [&] {
    const long r = pool.install([n] { return search_join(n, board{0, 0, 0, 0}); });
    keep(r);
    check("weft-join", n, r);
  });
}

}  // namespace weft_bench::nqueens
