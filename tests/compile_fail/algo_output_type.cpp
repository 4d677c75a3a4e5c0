// The output must take what the algorithm writes: one readable message instead of an error
// inside std::copy.
#include <weft/weft.hpp>

#include <string>
#include <vector>

int main() {
  std::vector<std::string> words{"a", "b"};
#ifdef WEFT_CF_CONTROL
  std::vector<std::string> out(words.size());
#else
  std::vector<int> out(words.size());
#endif
  weft::copy(weft::par, words.begin(), words.end(), out.begin());
  return static_cast<int>(out.size());
}
