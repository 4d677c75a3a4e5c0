// par_bridge takes an input range or a generator returning std::optional: a callable that
// returns plain values has no way to say it is done.
#include <weft/weft.hpp>

#include <optional>

int main() {
  int next = 0;
#ifdef WEFT_CF_CONTROL
  auto numbers = [&next]() -> std::optional<int> {
    if (next == 10) return std::nullopt;
    return next++;
  };
#else
  auto numbers = [&next]() { return next++; };
#endif
  return weft::par_bridge(numbers).sum();
}
