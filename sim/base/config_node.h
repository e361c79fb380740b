// A parsed configuration document: maps, lists and scalars, each with the file, line and
// column it came from. Produced by the YAML loader (the only file that sees yaml-cpp) and
// consumed by ConfigReader; no parser types leak past this header.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace trn::sim {

struct Location {
  std::string file;  // path, or "--set" for command-line overrides
  int line = 0;      // 1-based; 0 when unknown
  int col = 0;       // 1-based
  std::string str() const;
};

/// `text` with line breaks and other control characters escaped (\n, \t, \x01), so that
/// an error quoting a multi-line or binary value still prints as one line.
std::string one_line(const std::string& text);

/// A user-input error: names where (file:line:col), which key (dotted path) and what was
/// expected. The CLI prints `what()` on one line (see one_line) and exits with status 2.
/// `kind` says what sort of bad input it is, for machines (a sweep stores it with an infeasible
/// point): "invalid-config" unless the thrower knows better ("invalid-layout", "oom", ...).
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const Location& loc, const std::string& key_path, const std::string& message,
              std::string kind = "invalid-config");
  explicit ConfigError(const std::string& message);
  const std::string& kind() const { return kind_; }

 private:
  std::string kind_ = "invalid-config";
};

class ConfigNode {
 public:
  enum class Kind { Null, Scalar, Map, List };
  struct Entry;

  Kind kind = Kind::Null;
  std::string scalar;   // raw text of a scalar
  bool quoted = false;  // scalar was written in quotes ("...") in the source
  std::vector<Entry> map;
  std::vector<ConfigNode> list;
  Location loc;

  bool is_map() const { return kind == Kind::Map; }
  bool is_scalar() const { return kind == Kind::Scalar; }
  bool is_list() const { return kind == Kind::List; }
  const ConfigNode* find(const std::string& key) const;
  ConfigNode* find(const std::string& key);
  /// Sets map[key] = value, replacing an existing entry in place or appending.
  void set(const std::string& key, ConfigNode value, const Location& key_loc);
  void erase(const std::string& key);
  std::string kind_name() const;
};

struct ConfigNode::Entry {
  std::string key;
  Location key_loc;
  ConfigNode value;
};

/// Deep merge: maps merge key by key (overlay wins), anything else is replaced.
void merge_into(ConfigNode& base, const ConfigNode& overlay);

/// Where the dotted key ("topology.dims") is in `root`: the location of its deepest existing
/// node, so that a cross-field error points at the key or at least at its section.
Location locate(const ConfigNode& root, const std::string& dotted);

/// Applies one dotted override ("chip.hbm.bandwidth") to `root`, creating maps on the way.
void apply_dotted(ConfigNode& root, const std::string& dotted, ConfigNode value, const Location& loc);

/// Serialises a node as YAML text (block style, keys in their order).
std::string to_yaml(const ConfigNode& node, int indent = 0);

}  // namespace trn::sim
