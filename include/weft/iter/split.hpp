// SPDX-License-Identifier: MIT
// The recursive sources: weft::split(data, splitter), a pipeline whose items are pieces of
// `data` cut by the user's splitter (Rayon's rayon::iter::split), and
// weft::walk_tree_prefix / walk_tree_postfix(root, children_of), whose items are the nodes of
// a tree (Rayon's walk_tree_*). Unindexed: how many items there are is only known by cutting
// or walking. The consumer is split alongside the data, as chain splits it at its seam: the
// left part's results come first, so to_vector and find_first keep the order.
#pragma once

#include <bit>
#include <cstddef>
#include <functional>
#include <optional>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include "weft/iter/fwd.hpp"
#include "weft/iter/node.hpp"
#include "weft/join.hpp"
#include "weft/pool.hpp"

namespace weft {

namespace detail {

// The consumer positions a recursive source divides among its pieces: each cut halves its
// piece's share, so 62 levels of cuts still leave every piece a position of its own.
inline constexpr std::size_t recursive_source_positions = std::size_t{1} << 62;

// How many times split cuts before it yields a piece whole: about 16 pieces per thread
// (log2(threads) + 4 levels), as many as the bridge makes leaves for a pool to balance.
inline unsigned split_levels(std::size_t threads) {
  return static_cast<unsigned>(std::bit_width(threads > 1 ? threads - 1 : 0)) + 4;
}

template <class D, class S>
class split_node {
 public:
  static constexpr bool indexed = false;
  using item_type = D;

  split_node(D data, S splitter) : data_(std::move(data)), splitter_(std::move(splitter)) {}
  std::size_t positions() { return recursive_source_positions; }
  template <plumbing::consumer C>
  typename C::result_type drive(C c, const plumbing::split_options&) {
    return cut(D(data_), std::move(c), recursive_source_positions,
               split_levels(weft::num_threads()));
  }

 private:
  // Cuts `d` while levels remain and the splitter gives a right piece; the two pieces run as
  // the two halves of a join, each with its half of the consumer.
  template <class C>
  typename C::result_type cut(D d, C c, std::size_t len, unsigned levels) const {
    if (levels > 0 && len >= 2 && !c.full()) {
      // Not a structured binding: clang 14 cannot capture one in the lambdas below.
      std::pair<D, std::optional<D>> pieces = std::invoke(splitter_, std::move(d));
      if (pieces.second) {
        const std::size_t mid = len / 2;
        auto halves = c.split_at(mid);
        auto results = weft::join(
            [&] { return cut(std::move(pieces.first), std::move(halves.first), mid, levels - 1); },
            [&] {
              return cut(std::move(*pieces.second), std::move(halves.second), len - mid, levels - 1);
            });
        return c.reduce(std::move(results.first), std::move(results.second));
      }
      d = std::move(pieces.first);
    }
    auto f = c.make_folder();
    f.consume(0, std::move(d));
    return std::move(f).complete();
  }

  D data_;
  S splitter_;
};

// The nodes of the tree below `root`, children_of(node) giving a node's children (a range of
// T, by value), in prefix order (a node before its children) or postfix order (after them).
// A node splits the consumer between itself and its children, and among them, the halves of
// its list of children in parallel, while positions remain (each split halves them) and the
// walk is fewer than max_parallel_depth nodes deep; below, the subtree is walked on one thread, with
// an explicit stack, so that a tree as deep as a list does not overflow the thread's stack.
template <class T, class Children, bool Postfix>
class walk_tree_node {
 public:
  static constexpr bool indexed = false;
  using item_type = T;

  walk_tree_node(T root, Children children) : root_(std::move(root)), children_(std::move(children)) {}
  std::size_t positions() { return recursive_source_positions; }
  template <plumbing::consumer C>
  typename C::result_type drive(C c, const plumbing::split_options&) {
    return visit(T(root_), std::move(c), recursive_source_positions, 0);
  }

 private:
  static constexpr unsigned max_parallel_depth = 128;

  // A std::vector<T> from children_of is kept as it is; another range is copied into one.
  std::vector<T> children_of(const T& node) const {
    using given = std::remove_cvref_t<std::invoke_result_t<const Children&, const T&>>;
    if constexpr (std::is_same_v<given, std::vector<T>>) {
      return std::invoke(children_, node);
    } else {
      std::vector<T> out;
      for (auto&& child : std::invoke(children_, node)) out.emplace_back(std::forward<decltype(child)>(child));
      return out;
    }
  }

  template <class C>
  typename C::result_type visit(T node, C c, std::size_t len, unsigned depth) const {
    std::vector<T> kids = children_of(node);
    if (kids.empty() || len < 2 * (kids.size() + 1) || depth >= max_parallel_depth || c.full())
      return walk_sequentially(std::move(node), std::move(kids), std::move(c));
    if constexpr (!Postfix) {
      auto parts = c.split_at(1);
      auto own = fold_one(std::move(node), std::move(parts.first));
      auto below = visit_children(kids, 0, kids.size(), std::move(parts.second), len - 1, depth);
      return c.reduce(std::move(own), std::move(below));
    } else {
      auto parts = c.split_at(len - 1);
      auto below = visit_children(kids, 0, kids.size(), std::move(parts.first), len - 1, depth);
      auto own = fold_one(std::move(node), std::move(parts.second));
      return c.reduce(std::move(below), std::move(own));
    }
  }

  // Children [lo, hi) into c over len positions: halves of the list in parallel.
  template <class C>
  typename C::result_type visit_children(std::vector<T>& kids, std::size_t lo, std::size_t hi,
                                         C c, std::size_t len, unsigned depth) const {
    if (hi - lo == 1) return visit(std::move(kids[lo]), std::move(c), len, depth + 1);
    const std::size_t mid = lo + (hi - lo) / 2;
    const std::size_t at = len / 2;
    auto halves = c.split_at(at);
    auto results = weft::join(
        [&] { return visit_children(kids, lo, mid, std::move(halves.first), at, depth); },
        [&] { return visit_children(kids, mid, hi, std::move(halves.second), len - at, depth); });
    return c.reduce(std::move(results.first), std::move(results.second));
  }

  template <class C>
  static typename C::result_type fold_one(T node, C c) {
    auto f = c.make_folder();
    f.consume(0, std::move(node));
    return std::move(f).complete();
  }

  // The subtree on this thread: a depth-first walk with a stack of (node, its children, the
  // next child to walk); a node is consumed when its frame is pushed (prefix) or popped
  // (postfix).
  template <class C>
  typename C::result_type walk_sequentially(T node, std::vector<T> kids, C c) const {
    struct frame {
      std::optional<T> node;  // postfix: consumed when the frame is popped
      std::vector<T> kids;
      std::size_t next = 0;
    };
    auto f = c.make_folder();
    const auto stop = [&f] {
      if constexpr (plumbing::folder_stops_early<decltype(f)>)
        return f.done();
      else
        return false;
    };
    std::vector<frame> stack;
    const auto enter = [&](T n, std::vector<T> k) {
      if constexpr (Postfix) {
        stack.push_back({std::move(n), std::move(k)});
      } else {
        f.consume(0, std::move(n));
        stack.push_back({std::nullopt, std::move(k)});
      }
    };
    enter(std::move(node), std::move(kids));
    while (!stack.empty() && !stop()) {
      frame& top = stack.back();
      if (top.next < top.kids.size()) {
        T child = std::move(top.kids[top.next++]);
        std::vector<T> grandchildren = children_of(child);
        enter(std::move(child), std::move(grandchildren));  // may reallocate: top is stale
      } else {
        if constexpr (Postfix) f.consume(0, std::move(*top.node));
        stack.pop_back();
      }
    }
    return std::move(f).complete();
  }

  T root_;
  Children children_;
};

template <bool Postfix, class T, class Children>
auto walk_tree_pipeline(T root, Children children_of) {
  static_assert(std::is_copy_constructible_v<T>,
                "weft::walk_tree_prefix/postfix(root, children_of): the nodes must be copyable "
                "(the pipeline keeps root)");
  static_assert(std::is_invocable_v<const Children&, const T&> &&
                    std::ranges::input_range<std::invoke_result_t<const Children&, const T&>>,
                "weft::walk_tree_prefix/postfix(root, children_of): children_of(const T&) must "
                "return a range of the node's children");
  using node = walk_tree_node<T, Children, Postfix>;
  return par_iter<node>(node(std::move(root), std::move(children_of)));
}

}  // namespace detail

/// A pipeline over pieces of `data`: `splitter(piece)` returns a
/// `std::pair<D, std::optional<D>>`, the piece cut in two, or the piece itself and nothing
/// when it should not be cut (Rayon's split). Pieces are cut, the halves in parallel, until
/// the splitter declines or there are about 16 per thread of the pool; each piece is then
/// one item, whole, for the stages after it (`.map(process the piece)`), in the order of the
/// cuts (left before right). D must be copyable (the pipeline keeps `data` and cuts a copy
/// on each run) and movable. Not indexed.
template <class D, class S>
auto split(D data, S splitter) {
  static_assert(std::is_copy_constructible_v<D>,
                "weft::split(data, splitter): data must be copyable (each run cuts a copy)");
  using cut_type = std::invoke_result_t<const S&, D>;
  static_assert(std::is_same_v<std::remove_cvref_t<cut_type>, std::pair<D, std::optional<D>>>,
                "weft::split(data, splitter): splitter(D) must return "
                "std::pair<D, std::optional<D>>: the two pieces, or the piece and nothing");
  return par_iter<detail::split_node<D, S>>(
      detail::split_node<D, S>(std::move(data), std::move(splitter)));
}

/// A pipeline over the nodes of a tree: `root` and, below each node, the nodes of
/// `children_of(node)` (a range of T, by value: child nodes, or handles to them), each node
/// before its children (Rayon's walk_tree_prefix). Subtrees are walked in parallel where a
/// node has two or more children; to_vector and find_first see prefix order. T must be
/// copyable (the pipeline keeps `root`). Not indexed.
template <class T, class Children>
auto walk_tree_prefix(T root, Children children_of) {
  return detail::walk_tree_pipeline<false>(std::move(root), std::move(children_of));
}

/// walk_tree_prefix with each node after its children (Rayon's walk_tree_postfix).
template <class T, class Children>
auto walk_tree_postfix(T root, Children children_of) {
  return detail::walk_tree_pipeline<true>(std::move(root), std::move(children_of));
}

}  // namespace weft
