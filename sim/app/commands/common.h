// Helpers the commands share: option values with units and the memory figures of messages.
// No CLI11 and no printing.
#pragma once

#include <string>
#include <vector>

namespace trn::app {

/// Half of the machine's physical memory: the default of `--max-memory`.
double default_max_memory();

/// "12.34 GiB": memory figures in run and startup messages.
std::string gib(double bytes);

/// Parses a comma-separated list of sizes with units ("1KiB,1 MiB,512MiB"); errors name `option`.
std::vector<double> parse_size_list(const std::string& text, const std::string& option);
/// Parses one size with a unit.
double parse_size(const std::string& text, const std::string& option);

}  // namespace trn::app
