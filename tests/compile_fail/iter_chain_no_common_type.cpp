// chain(other): both sides' items must have a common type.
#include <weft/weft.hpp>

#include <string>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
#ifdef WEFT_CF_CONTROL
  std::vector<long> w{4, 5};
#else
  std::vector<std::string> w{"4", "5"};
#endif
  return static_cast<int>(weft::iter(v).chain(w).count());
}
