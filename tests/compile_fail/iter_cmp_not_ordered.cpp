// cmp/lt compare items with <=>: items without an order are refused with a readable message.
#include <weft/weft.hpp>

#include <vector>

struct point {
  int x, y;
  bool operator==(const point&) const = default;
#ifdef WEFT_CF_CONTROL
  auto operator<=>(const point&) const = default;
#endif
};

int main() {
  std::vector<point> a{{1, 2}}, b{{1, 3}};
  return weft::iter(a).lt(b) ? 0 : 1;
}
