// Quantities with units: parsing, printing, exact round trips, strictness.
#include <catch2/catch.hpp>

#include <random>

#include "sim/base/units.h"

using namespace trn::sim;

static double parse(const std::string& s, Dim d) {
  std::string why;
  auto v = parse_quantity(s, d, &why);
  INFO(s << ": " << why);
  REQUIRE(v.has_value());
  return *v;
}

TEST_CASE("quantities parse with decimal and binary prefixes", "[units]") {
  CHECK(parse("2.9 TB/s", Dim::Bandwidth) == Approx(2.9e12));
  CHECK(parse("1024 GB/s", Dim::Bandwidth) == Approx(1.024e12));
  CHECK(parse("96 GiB", Dim::Bytes) == 96.0 * 1073741824.0);
  CHECK(parse("96 GB", Dim::Bytes) == 96e9);
  CHECK(parse("1.5 us", Dim::Time) == Approx(1.5e-6));
  CHECK(parse("2.4 GHz", Dim::Frequency) == Approx(2.4e9));
  CHECK(parse("200 Gbps", Dim::Bandwidth) == Approx(25e9));  // bits -> bytes
  CHECK(parse("1KiB", Dim::Bytes) == 1024.0);                // no space needed
  CHECK(parse("79 TFLOPS", Dim::FlopRate) == Approx(79e12));
  CHECK(parse("1e3 ms", Dim::Time) == Approx(1.0));
}

TEST_CASE("times of a training job take days and weeks", "[units]") {
  CHECK(parse("30d", Dim::Time) == 30 * 86400.0);  // plan --deadline 30d, as its --help shows
  CHECK(parse("1 day", Dim::Time) == 86400.0);
  CHECK(parse("2.5 days", Dim::Time) == 2.5 * 86400.0);
  CHECK(parse("2w", Dim::Time) == 14 * 86400.0);
  CHECK(parse("1 week", Dim::Time) == 7 * 86400.0);
  CHECK(parse("3 weeks", Dim::Time) == 21 * 86400.0);
  // The expected-unit message keeps its short list (quoted in the docs).
  CHECK(dim_expectation(Dim::Time) == "a time with a unit (s, ms, us, \xC2\xB5s, ns, ps, min, h)");
  std::string why;
  CHECK_FALSE(parse_quantity("30 d", Dim::Bytes, &why));
  CHECK(why == "unit 'd' is a time, not a size in bytes");
}

TEST_CASE("a bare number or a unit of another dimension is an error", "[units]") {
  std::string why;
  CHECK_FALSE(parse_quantity("2.9", Dim::Bandwidth, &why));
  CHECK(why.find("no unit") != std::string::npos);
  CHECK_FALSE(parse_quantity("96 GiB", Dim::Bandwidth, &why));
  CHECK(why.find("size in bytes") != std::string::npos);
  CHECK_FALSE(parse_quantity("3 furlongs", Dim::Time, &why));
  CHECK(why.find("unknown unit") != std::string::npos);
  CHECK_FALSE(parse_quantity("abc GB", Dim::Bytes, &why));
  CHECK_FALSE(parse_quantity("", Dim::Bytes, &why));
  CHECK_FALSE(parse_quantity("1e400 B", Dim::Bytes, &why));
}

TEST_CASE("printing picks readable units", "[units]") {
  CHECK(format_quantity(2.9e12, Dim::Bandwidth) == "2.9 TB/s");
  CHECK(format_quantity(96.0 * 1073741824.0, Dim::Bytes) == "96 GiB");
  CHECK(format_quantity(1.5e-6, Dim::Time) == "1.5 us");
  CHECK(format_quantity(2.4e9, Dim::Frequency) == "2.4 GHz");
}

TEST_CASE("exact formatting reads back to the same double", "[units]") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> mant(1.0, 10.0);
  std::uniform_int_distribution<int> ex(-12, 15);
  for (Dim d : {Dim::Time, Dim::Bytes, Dim::Bandwidth, Dim::Frequency, Dim::FlopRate}) {
    for (int i = 0; i < 500; ++i) {
      double v = mant(rng) * std::pow(10.0, ex(rng));
      std::string s = format_quantity_exact(v, d);
      std::string why;
      auto back = parse_quantity(s, d, &why);
      INFO(s);
      REQUIRE(back.has_value());
      CHECK(*back == v);
    }
  }
  CHECK(format_quantity_exact(2.9e12, Dim::Bandwidth) == "2.9 TB/s");
  CHECK(format_quantity_exact(1073741824.0, Dim::Bytes) == "1 GiB");
}
