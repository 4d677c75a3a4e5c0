// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>

#include "migration.hpp"

TEST_CASE("a std::execution::par program and its weft twin compute the same", "[algo]") {
  const migration_result want = std_version::run();
  const migration_result got = weft_version::run();
  REQUIRE(want.size() >= 9);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    REQUIRE(got[i] == want[i]);
  }
}

TEST_CASE("the weft twin was made by the documented sed line: no std::execution left", "[algo]") {
  std::ifstream twin(WEFT_MIGRATED_PROGRAM);
  REQUIRE(twin.good());
  const std::string text{std::istreambuf_iterator<char>(twin), std::istreambuf_iterator<char>()};
  REQUIRE(text.find("(std::execution::") == std::string::npos);
  REQUIRE(text.find("weft::transform(weft::par,") != std::string::npos);
  REQUIRE(text.find("weft::reduce(weft::par,") != std::string::npos);
}
