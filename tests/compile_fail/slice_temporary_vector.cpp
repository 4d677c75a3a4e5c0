// weft::slice borrows its range: a temporary vector would leave the runs dangling.
#include <weft/weft.hpp>

#include <vector>

std::vector<int> make_items() { return {1, 1, 2}; }

int main() {
#ifdef WEFT_CF_CONTROL
  const std::vector<int> items = make_items();
  auto runs = weft::slice(items).chunks_exact(2);
#else
  auto runs = weft::slice(make_items()).chunks_exact(2);
#endif
  return static_cast<int>(runs.count());
}
