// SPDX-License-Identifier: MIT
#include <list>
#include <vector>

#include "weft/weft.hpp"
int main() {
#ifdef WEFT_CF_CONTROL
  std::vector<int> v{3, 1, 2};
  weft::sort(weft::par, v.begin(), v.end());
#else
  std::list<int> l{3, 1, 2};
  weft::sort(weft::par, l.begin(), l.end());
#endif
}
