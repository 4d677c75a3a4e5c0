// Chunks over a zip with a container moved into the pipeline view that container: to_vector
// would return them dangling (issue 40's reproducer).
#include <weft/weft.hpp>

#include <string>
#include <vector>

int main() {
  std::vector<int> a{1, 2, 3, 4};
#ifdef WEFT_CF_CONTROL
  std::vector<std::string> b{"w", "x", "y", "z"};
  auto chunks = weft::iter(a).zip(b).chunks(2).to_vector();
#else
  auto chunks = weft::iter(a).zip(std::vector<std::string>{"w", "x", "y", "z"}).chunks(2).to_vector();
#endif
  return static_cast<int>(chunks.size());
}
