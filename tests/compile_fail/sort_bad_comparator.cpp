// SPDX-License-Identifier: MIT
#include <string>
#include <vector>

#include "weft/weft.hpp"
int main() {
  std::vector<std::string> v{"b", "a"};
#ifdef WEFT_CF_CONTROL
  weft::stable_sort(weft::par, v.begin(), v.end(), [](const std::string& a, const std::string& b) { return a < b; });
#else
  weft::stable_sort(weft::par, v.begin(), v.end(), [](int a, int b) { return a < b; });
#endif
}
