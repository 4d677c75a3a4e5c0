// SPDX-License-Identifier: MIT
// A program written against std::execution::par. The build compiles it twice: as is (with
// libstdc++'s serial backend, so that it needs no oneTBB), and after the one-line migration
// of docs/migration.md (a sed line that moves each policy call and its policy to weft::).
// migration_test.cpp checks that both versions compute the same results.
#include <algorithm>
#include <cstdint>
#include <execution>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>
#include <weft/weft.hpp>

#include "migration.hpp"

namespace PROGRAM_NS {

migration_result run() {
  migration_result out;
  const auto keep = [&](std::vector<long> v) { out.push_back(std::move(v)); };
  const std::size_t n = 200'003;
  std::vector<long> v(n);
  std::uint64_t x = 42;
  for (auto& e : v) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    e = static_cast<long>(x >> 44);
  }

  std::vector<long> w(n);
  std::transform(std::execution::par, v.begin(), v.end(), w.begin(), [](long a) { return a % 1000; });
  keep(w);
  std::for_each(std::execution::par, w.begin(), w.end(), [](long& a) { a = a * 3 + 1; });
  keep(w);
  keep({std::reduce(std::execution::par, w.begin(), w.end()),
        std::reduce(std::execution::par, w.begin(), w.end(), 5L, [](long a, long b) { return std::max(a, b); }),
        std::transform_reduce(std::execution::par, v.begin(), v.end(), w.begin(), 0L),
        std::transform_reduce(std::execution::par, v.begin(), v.end(), 0L, std::plus<>{}, [](long a) { return a & 7; }),
        static_cast<long>(std::count(std::execution::par, w.begin(), w.end(), 301L)),
        static_cast<long>(std::count_if(std::execution::par, v.begin(), v.end(), [](long a) { return a % 3 == 0; })),
        std::find(std::execution::par, w.begin(), w.end(), 2998L) - w.begin(),
        std::find_if(std::execution::par, v.begin(), v.end(), [](long a) { return a > 1'000'000; }) - v.begin(),
        std::find_if_not(std::execution::par, w.begin(), w.end(), [](long a) { return a < 2000; }) - w.begin(),
        std::min_element(std::execution::par, w.begin(), w.end()) - w.begin(),
        std::max_element(std::execution::par, w.begin(), w.end()) - w.begin(),
        std::minmax_element(std::execution::par, w.begin(), w.end()).second - w.begin(),
        std::all_of(std::execution::par, w.begin(), w.end(), [](long a) { return a > 0; }),
        std::any_of(std::execution::par, w.begin(), w.end(), [](long a) { return a == 7; }),
        std::none_of(std::execution::par, w.begin(), w.end(), [](long a) { return a < 0; }),
        std::adjacent_find(std::execution::par, w.begin(), w.end()) - w.begin(),
        std::is_sorted(w.begin(), w.end()),
        std::equal(std::execution::par, v.begin(), v.end(), v.begin()),
        std::mismatch(std::execution::par, v.begin(), v.end(), w.begin()).first - v.begin(),
        std::lexicographical_compare(std::execution::par, v.begin(), v.end(), w.begin(), w.end()),
        std::search(std::execution::par, w.begin(), w.end(), w.begin() + 5000, w.begin() + 5003) - w.begin(),
        std::find_end(std::execution::par, w.begin(), w.end(), w.begin() + 5000, w.begin() + 5002) - w.begin(),
        std::search_n(std::execution::par, w.begin(), w.end(), 2, 301L) - w.begin(),
        std::find_first_of(std::execution::par, v.begin(), v.end(), w.begin(), w.begin() + 10) - v.begin(),
        std::is_heap_until(std::execution::par, w.begin(), w.end()) - w.begin(),
        std::is_partitioned(std::execution::par, w.begin(), w.end(), [](long a) { return a < 100; })});

  std::vector<long> u(n);
  std::copy(std::execution::par, v.begin(), v.end(), u.begin());
  std::replace_if(std::execution::par, u.begin(), u.end(), [](long a) { return a % 5 == 0; }, -1L);
  std::replace(std::execution::par, u.begin(), u.end(), -1L, -2L);
  keep(u);
  std::reverse(std::execution::par, u.begin(), u.end());
  std::rotate(std::execution::par, u.begin(), u.begin() + 777, u.end());
  keep(u);
  std::reverse_copy(std::execution::par, v.begin(), v.end(), u.begin());
  std::swap_ranges(std::execution::par, u.begin(), u.begin() + 1000, w.begin());
  keep(u);
  keep(w);
  std::fill(std::execution::par, u.begin(), u.end(), 9L);
  std::fill_n(std::execution::par, u.begin(), 100, 8L);
  std::generate_n(std::execution::par, u.begin() + 200, 50, [] { return 7L; });
  std::copy_n(std::execution::par, v.begin(), 60, u.begin() + 300);
  std::replace_copy(std::execution::par, v.begin(), v.begin() + 500, u.begin() + 1000, v[3], 0L);
  std::rotate_copy(std::execution::par, v.begin(), v.begin() + 10, v.begin() + 400, u.begin() + 2000);
  std::transform(std::execution::par, v.begin(), v.end(), w.begin(), u.begin(), std::minus<>{});
  keep(u);

  std::vector<std::string> strings(5000);
  std::transform(std::execution::par, v.begin(), v.begin() + 5000, strings.begin(), [](long a) { return std::to_string(a); });
  std::allocator<std::string> alloc;
  std::string* raw = alloc.allocate(5000);
  std::uninitialized_copy(std::execution::par, strings.begin(), strings.end(), raw);
  keep({static_cast<long>(std::count_if(std::execution::par, raw, raw + 5000, [](const std::string& s) { return s.size() > 5; }))});
  std::destroy(std::execution::par, raw, raw + 5000);
  alloc.deallocate(raw, 5000);
  return out;
}

}  // namespace PROGRAM_NS
