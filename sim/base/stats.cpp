// The statistics tree (stats.h).
#include "sim/base/stats.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace trn::sim {

StatGroup& StatGroup::group(const std::string& name, const std::string& description) {
  for (auto& [n, g] : groups_)
    if (n == name) {
      if (g->description_.empty()) g->description_ = description;
      return *g;
    }
  groups_.emplace_back(name, std::make_unique<StatGroup>(description));
  return *groups_.back().second;
}

void StatGroup::check_new(const std::string& name) const {
  for (const Stat& s : stats_)
    if (s.name == name) throw std::logic_error("statistic '" + name + "' registered twice");
}

void StatGroup::add(const std::string& name, const std::string& unit, const std::string& description,
                    std::function<double()> read) {
  check_new(name);
  stats_.push_back({name, unit, description, std::move(read), {}});
}

void StatGroup::add_vector(const std::string& name, const std::string& unit, const std::string& description,
                           std::function<Entries()> read) {
  check_new(name);
  stats_.push_back({name, unit, description, {}, std::move(read)});
}

double StatGroup::value(const std::string& path) const {
  const size_t dot = path.find('.');
  if (dot == std::string::npos) {
    for (const Stat& s : stats_)
      if (s.name == path && s.scalar) return s.scalar();
  } else {
    const std::string head = path.substr(0, dot);
    for (const auto& [n, g] : groups_)
      if (n == head) try {
          return g->value(path.substr(dot + 1));
        } catch (const std::out_of_range&) {
          break;
        }
  }
  throw std::out_of_range("no statistic '" + path + "'");
}

nlohmann::json StatGroup::snapshot() const {
  nlohmann::json stats = nlohmann::json::array(), groups = nlohmann::json::array();
  for (const Stat& s : stats_) {
    nlohmann::json j = {{"name", s.name}, {"unit", s.unit}, {"description", s.description}};
    if (s.scalar) {
      j["value"] = s.scalar();
    } else {
      nlohmann::json entries = nlohmann::json::array();
      for (const auto& [label, v] : s.vector())
        if (v != 0) entries.push_back({label, v});
      j["entries"] = entries;
    }
    stats.push_back(j);
  }
  for (const auto& [n, g] : groups_) {
    nlohmann::json j = g->snapshot();
    j["name"] = n;
    groups.push_back(j);
  }
  return {{"description", description_}, {"stats", stats}, {"groups", groups}};
}

namespace {

// One line: the path, the value right-aligned, the unit, and the description (empty for the
// second and later entries of a vector: the first one carries it).
void line(std::string& out, const std::string& path, double value, const std::string& unit,
          const std::string& description) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", value);
  const std::string v = buf;
  std::string l = path;
  l.resize(std::max<size_t>(l.size() + 1, 56), ' ');
  l += std::string(v.size() < 18 ? 18 - v.size() : 0, ' ') + v + "  " + unit;
  if (!description.empty()) {
    l.resize(std::max<size_t>(l.size() + 1, 88), ' ');
    l += "# " + description;
  }
  out += l + "\n";
}

void text(std::string& out, const nlohmann::json& g, const std::string& prefix) {
  for (const auto& s : g.at("stats")) {
    const std::string path = prefix + s.at("name").get<std::string>();
    const std::string unit = s.at("unit"), description = s.at("description");
    if (s.contains("value")) {
      line(out, path, s.at("value").get<double>(), unit, description);
      continue;
    }
    bool first = true;
    for (const auto& e : s.at("entries")) {
      line(out, path + "[" + e.at(0).get<std::string>() + "]", e.at(1).get<double>(), unit, first ? description : "");
      first = false;
    }
  }
  for (const auto& c : g.at("groups")) text(out, c, prefix + c.at("name").get<std::string>() + ".");
}

}  // namespace

std::string stats_text(const nlohmann::json& snapshot, const std::string& prefix) {
  std::string out;
  text(out, snapshot, prefix);
  return out;
}

}  // namespace trn::sim
