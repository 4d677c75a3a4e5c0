// weft::str borrows its text: a temporary std::string would leave the pieces dangling.
#include <weft/weft.hpp>

#include <string>

std::string make_text() { return "a\nb\n"; }

int main() {
#ifdef WEFT_CF_CONTROL
  const std::string text = make_text();
  auto lines = weft::str(text).lines();
#else
  auto lines = weft::str(make_text()).lines();
#endif
  return static_cast<int>(lines.count());
}
