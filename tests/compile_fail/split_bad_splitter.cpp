// weft::split's splitter returns the two pieces as std::pair<D, std::optional<D>>.
#include <weft/weft.hpp>

#include <optional>
#include <utility>

using piece = std::pair<int, int>;

int main() {
#ifdef WEFT_CF_CONTROL
  auto cut = [](piece p) -> std::pair<piece, std::optional<piece>> { return {p, std::nullopt}; };
#else
  auto cut = [](piece p) { return p; };
#endif
  return static_cast<int>(weft::split(piece{0, 10}, cut).count());
}
