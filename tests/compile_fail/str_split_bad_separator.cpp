// A text's separator is a char or a predicate on chars: a string is refused readably.
#include <weft/weft.hpp>

#include <string>

int main() {
  const std::string text = "a, b, c";
#ifdef WEFT_CF_CONTROL
  return static_cast<int>(weft::str(text).split(',').count());
#else
  return static_cast<int>(weft::str(text).split(std::string(", ")).count());
#endif
}
