// weft::iter needs a random-access range: std::list is rejected with advice.
#include <weft/weft.hpp>

#include <list>
#include <vector>

int main() {
#ifdef WEFT_CF_CONTROL
  std::vector<int> l{1, 2, 3};
#else
  std::list<int> l{1, 2, 3};
#endif
  return weft::iter(l).sum();
}
