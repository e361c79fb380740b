// ConfigNode helpers: lookup, merge, dotted overrides and YAML serialisation.
#include "sim/base/config_node.h"

#include <cctype>
#include <sstream>

namespace trn::sim {

std::string Location::str() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

std::string one_line(const std::string& text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c == 0x7f)
      out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    else
      out += ch;
  }
  return out;
}

ConfigError::ConfigError(const Location& loc, const std::string& key_path, const std::string& message, std::string kind)
    : std::runtime_error(one_line(loc.str() + ": " + (key_path.empty() ? "" : key_path + ": ") + message)),
      kind_(std::move(kind)) {}

ConfigError::ConfigError(const std::string& message) : std::runtime_error(one_line(message)) {}

const ConfigNode* ConfigNode::find(const std::string& key) const {
  for (const auto& e : map)
    if (e.key == key) return &e.value;
  return nullptr;
}

ConfigNode* ConfigNode::find(const std::string& key) {
  for (auto& e : map)
    if (e.key == key) return &e.value;
  return nullptr;
}

void ConfigNode::set(const std::string& key, ConfigNode value, const Location& key_loc) {
  for (auto& e : map) {
    if (e.key == key) {
      e.value = std::move(value);
      e.key_loc = key_loc;
      return;
    }
  }
  map.push_back(Entry{key, key_loc, std::move(value)});
}

void ConfigNode::erase(const std::string& key) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->key == key) {
      map.erase(it);
      return;
    }
  }
}

std::string ConfigNode::kind_name() const {
  switch (kind) {
    case Kind::Null: return "nothing";
    case Kind::Scalar: return "a scalar";
    case Kind::Map: return "a map";
    case Kind::List: return "a list";
  }
  return "?";
}

void merge_into(ConfigNode& base, const ConfigNode& overlay) {
  if (base.is_map() && overlay.is_map()) {
    for (const auto& e : overlay.map) {
      ConfigNode* existing = base.find(e.key);
      if (existing)
        merge_into(*existing, e.value);
      else
        base.map.push_back(e);
    }
    return;
  }
  base = overlay;
}

Location locate(const ConfigNode& root, const std::string& dotted) {
  const ConfigNode* n = &root;
  size_t start = 0;
  while (n->is_map()) {
    size_t dot = dotted.find('.', start);
    const ConfigNode* next = n->find(dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (!next || next->loc.file.empty()) break;
    n = next;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return n->loc;
}

void apply_dotted(ConfigNode& root, const std::string& dotted, ConfigNode value, const Location& loc) {
  ConfigNode* cur = &root;
  size_t start = 0;
  std::string path;
  while (true) {
    size_t dot = dotted.find('.', start);
    std::string key = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (key.empty()) throw ConfigError(loc, dotted, "empty key in dotted path");
    if (!cur->is_map()) {
      if (cur->kind == ConfigNode::Kind::Null) {
        cur->kind = ConfigNode::Kind::Map;
        cur->loc = loc;
      } else {
        // `path` is the parent at this point: the node that cannot hold keys.
        throw ConfigError(loc, dotted, "cannot set a key inside '" + path + "', which is " + cur->kind_name());
      }
    }
    path += (path.empty() ? "" : ".") + key;
    if (dot == std::string::npos) {
      cur->set(key, std::move(value), loc);
      return;
    }
    ConfigNode* next = cur->find(key);
    if (!next) {
      ConfigNode m;
      m.kind = ConfigNode::Kind::Map;
      m.loc = loc;
      cur->set(key, std::move(m), loc);
      next = cur->find(key);
    }
    cur = next;
    start = dot + 1;
  }
}

namespace {

bool needs_quotes(const std::string& s) {
  // Plain scalars that YAML reads as null.
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return true;
  for (char c : s)
    if (c == ':' || c == '#' || c == '\'' || c == '"' || c == '{' || c == '}' || c == '[' || c == ']' || c == ',' ||
        c == '&' || c == '*' || c == '!' || c == '|' || c == '>' || c == '%' || c == '@' || c == '`' || c == '\\' ||
        static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return true;
  // A leading '-' starts a list item unless a digit or '.' follows (a negative number).
  const bool negative_number =
      s.size() > 1 && s.front() == '-' && (std::isdigit(static_cast<unsigned char>(s[1])) || s[1] == '.');
  return s.front() == ' ' || s.back() == ' ' || (s.front() == '-' && !negative_number) || s.front() == '?';
}

std::string quote(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string scalar_text(const ConfigNode& n) {
  if (n.quoted || needs_quotes(n.scalar)) return quote(n.scalar);
  return n.scalar;
}

void emit(std::ostringstream& os, const ConfigNode& n, int indent) {
  std::string pad(static_cast<size_t>(indent), ' ');
  if (n.is_map()) {
    for (const auto& e : n.map) {
      os << pad << e.key << ":";
      if (e.value.is_scalar()) {
        os << " " << scalar_text(e.value) << "\n";
      } else if (e.value.kind == ConfigNode::Kind::Null) {
        os << " null\n";
      } else if ((e.value.is_map() && e.value.map.empty()) || (e.value.is_list() && e.value.list.empty())) {
        os << (e.value.is_map() ? " {}\n" : " []\n");
      } else {
        os << "\n";
        emit(os, e.value, indent + 2);
      }
    }
  } else if (n.is_list()) {
    for (const auto& item : n.list) {
      if (item.is_scalar()) {
        os << pad << "- " << scalar_text(item) << "\n";
      } else {
        os << pad << "-\n";
        emit(os, item, indent + 2);
      }
    }
  } else if (n.is_scalar()) {
    os << pad << scalar_text(n) << "\n";
  }
}

}  // namespace

std::string to_yaml(const ConfigNode& node, int indent) {
  std::ostringstream os;
  emit(os, node, indent);
  return os.str();
}

}  // namespace trn::sim
