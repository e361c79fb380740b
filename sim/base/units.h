// Physical quantities with units: parsing ("2.9 TB/s", "96 GiB", "1.5 us", "200 Gbps"),
// printing, and strong types so that a time is never passed where bytes are expected.
//
// Every value is held in SI base units: seconds, bytes, bytes per second, hertz, FLOP/s.
// Decimal prefixes are powers of 1000 (GB = 1e9) and binary prefixes powers of 1024
// (GiB = 2^30), strictly. Bit rates ("Gbps") are converted to bytes per second (/8).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace trn::sim {

enum class Dim { Time, Bytes, Bandwidth, Frequency, FlopRate };

/// Human name of a dimension with its accepted units, for error messages.
std::string dim_expectation(Dim dim);

/// Parses "<number> <unit>" for the given dimension. Returns nullopt and sets `why`
/// on failure (bare number, unknown unit, unit of another dimension, not a number).
std::optional<double> parse_quantity(std::string_view text, Dim dim, std::string* why);

/// The largest magnitude a configuration may give for a dimension (1e9 s, 2^60 B, 1e18 B/s,
/// 1e12 Hz, 1e21 FLOP/s): far beyond any real system, yet small enough that products of
/// such values stay finite and byte counts stay exact in 64-bit integers.
double largest_quantity(Dim dim);

/// Formats a value for humans with a readable prefix, e.g. "2.9 TB/s", "96 GiB", "1.5 us".
/// `digits` significant digits.
std::string format_quantity(double value, Dim dim, int digits = 4);

/// Formats a value so that parse_quantity() returns exactly the same double
/// (shortest round-trip representation in a readable unit, else in the base unit).
std::string format_quantity_exact(double value, Dim dim);

/// Shortest decimal text that reads back to exactly `value`.
std::string format_double_exact(double value);

template <Dim D>
struct Quantity {
  double v = 0.0;  // SI base units
  constexpr Quantity() = default;
  constexpr explicit Quantity(double x) : v(x) {}
  static constexpr Dim dim = D;
  constexpr Quantity operator+(Quantity o) const { return Quantity(v + o.v); }
  constexpr Quantity operator-(Quantity o) const { return Quantity(v - o.v); }
  constexpr Quantity operator*(double k) const { return Quantity(v * k); }
  constexpr Quantity operator/(double k) const { return Quantity(v / k); }
  constexpr double operator/(Quantity o) const { return v / o.v; }
  constexpr bool operator<(Quantity o) const { return v < o.v; }
  constexpr bool operator<=(Quantity o) const { return v <= o.v; }
  constexpr bool operator>(Quantity o) const { return v > o.v; }
  constexpr bool operator==(Quantity o) const { return v == o.v; }
  std::string str(int digits = 4) const { return format_quantity(v, D, digits); }
};

using Time = Quantity<Dim::Time>;
using Bytes = Quantity<Dim::Bytes>;
using Bandwidth = Quantity<Dim::Bandwidth>;
using Frequency = Quantity<Dim::Frequency>;
using FlopRate = Quantity<Dim::FlopRate>;

/// Time to move `b` at `bw`.
inline Time transfer_time(Bytes b, Bandwidth bw) { return Time(b.v / bw.v); }

}  // namespace trn::sim
