// YAML -> ConfigNode, with include/overrides/--set handling.
#include "sim/base/config_loader.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace trn::sim {
namespace fs = std::filesystem;
namespace {

Location loc_of(const YAML::Mark& m, const std::string& file) { return Location{file, m.line + 1, m.column + 1}; }

// YAML aliases (*a) share nodes in yaml-cpp but are copied here, so a few lines of nested
// aliases can expand into billions of values: the conversion stops at these limits.
struct Budget {
  size_t nodes = 0, bytes = 0;
  static constexpr size_t kMaxNodes = 100000, kMaxBytes = 16u << 20;
};

ConfigNode convert(const YAML::Node& n, const std::string& file, Budget& budget) {
  ConfigNode out;
  out.loc = loc_of(n.Mark(), file);
  if (++budget.nodes > Budget::kMaxNodes || (n.IsScalar() && (budget.bytes += n.Scalar().size()) > Budget::kMaxBytes))
    throw ConfigError(out.loc, "",
                      "the document expands to more than 100,000 values or 16 MiB of text "
                      "(nested YAML aliases?); expected a configuration file");
  switch (n.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null: out.kind = ConfigNode::Kind::Null; break;
    case YAML::NodeType::Scalar:
      out.kind = ConfigNode::Kind::Scalar;
      out.scalar = n.Scalar();
      out.quoted = n.Tag() == "!";
      break;
    case YAML::NodeType::Sequence:
      out.kind = ConfigNode::Kind::List;
      for (const auto& item : n) out.list.push_back(convert(item, file, budget));
      break;
    case YAML::NodeType::Map: {
      out.kind = ConfigNode::Kind::Map;
      std::set<std::string> seen;
      for (const auto& kv : n) {
        Location kl = loc_of(kv.first.Mark(), file);
        if (!kv.first.IsScalar()) throw ConfigError(kl, "", "a map key must be a plain name");
        std::string key = kv.first.Scalar();
        if (!seen.insert(key).second) throw ConfigError(kl, key, "duplicate key");
        out.map.push_back(ConfigNode::Entry{key, kl, convert(kv.second, file, budget)});
      }
      break;
    }
  }
  return out;
}

ConfigNode parse_uncached(const std::string& text, const std::string& name) {
  try {
    YAML::Node n = YAML::Load(text);
    Budget budget;
    return convert(n, name, budget);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(loc_of(e.mark, name), "", "YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw ConfigError(loc_of(e.mark, name), "", "YAML error: " + e.msg);
  }
}

// `from` and `key` say where the file was named ("include" for an include).
std::string read_file(const std::string& path, const Location& from, const std::string& key = "") {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw ConfigError(from, key, "file '" + path + "' does not exist");
  if (fs::is_directory(path, ec)) throw ConfigError(from, key, "'" + path + "' is a directory, expected a YAML file");
  // A device or FIFO (/dev/zero, /dev/stdin) could block or never end.
  if (!fs::is_regular_file(path, ec))
    throw ConfigError(from, key, "'" + path + "' is not a regular file, expected a YAML file");
  constexpr std::uintmax_t kMaxBytes = 16u << 20;
  if (std::uintmax_t size = fs::file_size(path, ec); !ec && size > kMaxBytes)
    throw ConfigError(from, key, "'" + path + "' is larger than 16 MiB, expected a YAML configuration file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(from, key, "cannot read '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A configuration file's text parsed once: a plan loads its base scenario, model, system and
// chip once per layout (thousands of times). Trees are kept by file name and whole text (never
// stale), at most kParsedKept of them; --set values are parsed apart and not kept.
ConfigNode parse_file_text(const std::string& text, const std::string& name) {
  static std::map<std::pair<std::string, std::string>, ConfigNode> parsed;
  constexpr size_t kParsedKept = 256;
  auto key = std::make_pair(name, text);
  if (auto it = parsed.find(key); it != parsed.end()) return it->second;
  ConfigNode tree = parse_uncached(text, name);
  if (parsed.size() >= kParsedKept) parsed.clear();
  parsed.emplace(std::move(key), tree);
  return tree;
}

// `loaded` counts the files read for one top-level file: includes that fan out (each file
// including the next one twice) would otherwise read an exponential number of files.
ConfigNode load_rec(const std::string& path, const Location& from, std::vector<std::string>& stack, int& loaded) {
  if (++loaded > 1000)
    throw ConfigError(from, "include", "more than 1000 files included; expected a shallow include tree");
  std::string canon = fs::weakly_canonical(fs::path(path)).string();
  for (const auto& s : stack)
    if (s == canon) throw ConfigError(from, "include", "include cycle through '" + path + "'");
  stack.push_back(canon);
  const bool included = stack.size() > 1;  // else the file was named on the command line
  ConfigNode doc = parse_file_text(read_file(path, from, included ? "include" : ""), path);
  if (doc.kind == ConfigNode::Kind::Null) {
    doc.kind = ConfigNode::Kind::Map;
    doc.loc = Location{path, 1, 1};
  }
  if (!doc.is_map())
    throw ConfigError(doc.loc, "", "expected a map of keys at the top of the file, found " + doc.kind_name());
  ConfigNode result;
  result.kind = ConfigNode::Kind::Map;
  result.loc = doc.loc;
  if (const ConfigNode* inc = doc.find("include")) {
    std::vector<const ConfigNode*> items;
    if (inc->is_scalar())
      items.push_back(inc);
    else if (inc->is_list())
      for (const auto& i : inc->list) items.push_back(&i);
    else
      throw ConfigError(inc->loc, "include", "expected a file name or a list of file names");
    for (const ConfigNode* i : items) {
      if (!i->is_scalar()) throw ConfigError(i->loc, "include", "expected a file name");
      fs::path p = fs::path(path).parent_path() / i->scalar;
      merge_into(result, load_rec(p.string(), i->loc, stack, loaded));
    }
  }
  ConfigNode own = doc;
  own.erase("include");
  own.erase("overrides");
  merge_into(result, own);
  result.loc = doc.loc;
  if (const ConfigNode* ov = doc.find("overrides")) {
    if (!ov->is_map()) throw ConfigError(ov->loc, "overrides", "expected a map of dotted keys to values");
    for (const auto& e : ov->map) apply_dotted(result, e.key, e.value, e.key_loc);
  }
  stack.pop_back();
  return result;
}

}  // namespace

ConfigNode parse_yaml_text(const std::string& text, const std::string& name) { return parse_uncached(text, name); }

ConfigNode parse_yaml_file(const std::string& path) {
  return parse_file_text(read_file(path, Location{path, 0, 0}), path);
}

ConfigNode load_config_file(const std::string& path) {
  std::vector<std::string> stack;
  int loaded = 0;
  return load_rec(path, Location{path, 0, 0}, stack, loaded);
}

SetAssignment parse_set(const std::string& text, int index) {
  Location loc{"--set #" + std::to_string(index) + " '" + text + "'", 0, 0};
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(loc, "", "expected key=value, e.g. --set chip.hbm.bandwidth=\"3.0 TB/s\"");
  SetAssignment a;
  a.key = text.substr(0, eq);
  a.loc = loc;
  std::string value = text.substr(eq + 1);
  a.value = parse_yaml_text(value, loc.file);
  a.value.loc = loc;
  if (a.value.kind == ConfigNode::Kind::Null) {
    a.value.kind = ConfigNode::Kind::Scalar;
    a.value.scalar = "";
  }
  return a;
}

void apply_sets(ConfigNode& root, const std::vector<SetAssignment>& sets) {
  for (const auto& s : sets) apply_dotted(root, s.key, s.value, s.loc);
}

}  // namespace trn::sim
