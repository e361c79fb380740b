// Helpers the commands share (common.h).
#include "sim/app/commands/common.h"

#include <unistd.h>

#include <cstdio>

#include "sim/base/config_node.h"
#include "sim/base/units.h"

namespace trn::app {

double default_max_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? 0.5 * double(pages) * double(page) : 8.0 * 1073741824.0;
}

std::string gib(double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", b / 1073741824.0);
  return buf;
}

double parse_size(const std::string& text, const std::string& option) {
  std::string why;
  auto v = sim::parse_quantity(text, sim::Dim::Bytes, &why);
  if (!v)
    throw sim::ConfigError(sim::Location{option, 0, 0}, "",
                           why + "; expected " + sim::dim_expectation(sim::Dim::Bytes));
  if (*v <= 0) throw sim::ConfigError(sim::Location{option, 0, 0}, "", "size '" + text + "' must be positive");
  if (*v > 1e15)
    throw sim::ConfigError(sim::Location{option, 0, 0}, "", "size '" + text + "' is too large (over 1 PB)");
  return *v;
}

std::vector<double> parse_size_list(const std::string& text, const std::string& option) {
  std::vector<double> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    out.push_back(parse_size(item, option));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace trn::app
