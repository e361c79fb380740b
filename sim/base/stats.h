// A small statistics tree, after gem5's statistics::Group and DRAMSys's statistics groups:
// the fabric, the cores and the program runner register their counters here, each with a
// name, a unit and a description, instead of the step reading loose members. A stat is read
// when it is asked for (value(), snapshot()), so registering costs nothing while the model
// runs. `trnsim run --stats FILE` writes the snapshot of every simulation of the step
// (docs/architecture.md, "Statistics").
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace trn::sim {

class StatGroup {
 public:
  using Entries = std::vector<std::pair<std::string, double>>;

  explicit StatGroup(std::string description = "") : description_(std::move(description)) {}
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  /// The child group `name`, created on first use (later calls return it; a description given
  /// then is kept if the group had none).
  StatGroup& group(const std::string& name, const std::string& description = "");
  /// Registers a scalar: `read` returns its current value in `unit`. Throws std::logic_error
  /// on a name registered twice in this group.
  void add(const std::string& name, const std::string& unit, const std::string& description,
           std::function<double()> read);
  /// Registers a vector: `read` returns (label, value) entries; snapshots keep the non-zero ones.
  void add_vector(const std::string& name, const std::string& unit, const std::string& description,
                  std::function<Entries()> read);

  /// The current value of the scalar at `path` ("system.fabric.events"). Throws
  /// std::out_of_range naming the path when there is none.
  double value(const std::string& path) const;

  /// Every stat's current value, in registration order (JSON arrays, so that the order
  /// survives any JSON round trip): {"description", "stats": [{"name", "unit", "description",
  /// "value"} or {..., "entries": [[label, value], ...]}], "groups": [{"name", ...group}]}.
  nlohmann::json snapshot() const;

 private:
  struct Stat {
    std::string name, unit, description;
    std::function<double()> scalar;
    std::function<Entries()> vector;
  };
  void check_new(const std::string& name) const;
  std::string description_;
  std::vector<Stat> stats_;
  std::vector<std::pair<std::string, std::unique_ptr<StatGroup>>> groups_;
};

/// A snapshot as text, one line per value, in the style of gem5's stats.txt:
/// "PATH  VALUE  UNIT  # DESCRIPTION", with a vector's entries as PATH[LABEL]. `prefix` goes in
/// front of every path.
std::string stats_text(const nlohmann::json& snapshot, const std::string& prefix = "");

}  // namespace trn::sim
