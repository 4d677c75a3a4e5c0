// SPDX-License-Identifier: MIT
// algo::prefault, which faults in a large output buffer on every worker before it is filled.
#include <catch2/catch.hpp>
#include <weft/weft.hpp>

#include <cstddef>
#include <vector>

#include "weft/kernels/pages.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace {
constexpr std::size_t page = weft::detail::algo::fault_page_bytes;
}

TEST_CASE("prefault leaves every byte outside its range as it was", "[algo][pages]") {
  // The range begins and ends inside pages whose other bytes belong to someone else: the
  // kernel's populate call writes nothing, and the fallback writes only inside the range.
  for (const std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{100}, page - 1}) {
    for (const std::size_t bytes :
         {std::size_t{0}, std::size_t{1}, page - offset, 3 * page + 7, 40 * page}) {
      std::vector<unsigned char> buffer(offset + bytes + 2 * page, 0xAB);
      unsigned char* const first = buffer.data() + offset;
      weft::detail::algo::prefault(first, bytes);
      std::size_t changed = 0;
      for (std::size_t i = 0; i < buffer.size(); ++i) {
        const bool inside = i >= offset && i < offset + bytes;
        changed += !inside && buffer[i] != 0xAB;
      }
      CHECK(changed == 0);
    }
  }
}

#if defined(__linux__)
TEST_CASE("prefault makes every page of a fresh mapping resident", "[algo][pages]") {
  // 4,096 pages (16 MiB): enough blocks for a 2-thread pool to split. A fresh anonymous
  // mapping has no resident page until one is touched; mincore reports which are.
  const std::size_t pages = 4096;
  void* const map = mmap(nullptr, (pages + 2) * page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  auto* const base = static_cast<unsigned char*>(map);
  std::vector<unsigned char> resident(pages + 2);
  REQUIRE(mincore(map, (pages + 2) * page, resident.data()) == 0);
  std::size_t before = 0;
  for (const unsigned char r : resident) before += r & 1;
  CHECK(before == 0);

  // From the middle of the first page to the middle of the last: both count as the range's.
  weft::detail::algo::prefault(base + page + page / 2, pages * page - page);
  REQUIRE(mincore(map, (pages + 2) * page, resident.data()) == 0);
  std::size_t missing = 0;
  for (std::size_t i = 1; i <= pages; ++i) missing += (resident[i] & 1) == 0;
  CHECK(missing == 0);
  CHECK((resident[0] & 1) == 0);
  CHECK((resident[pages + 1] & 1) == 0);
  munmap(map, (pages + 2) * page);
}
#endif
