// Typed, strict reading and writing of configuration structs.
//
// A spec struct lists its fields once, in `template <class V> void visit(V& v)`:
//
//   v.field("bandwidth", bandwidth, F("peak HBM bandwidth per chip").gt(0));
//   v.section("tensor", tensor, F("tensor engine"));
//
// Enum fields are read and written as words: a scoped enum E whose namespace declares
// `const std::vector<std::string>& enum_words(E)` (the words in enum order) is a field like a
// string restricted to those words (`word_of(e)` gives the word, `enum_of_word<E>(w)` the value).
//
// That one list drives loading (ConfigReader: unknown/missing keys, wrong types, units,
// ranges, all with file:line:col and the dotted key path), the resolved-config dump
// (ConfigWriter) and the generated field reference (FieldLister).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/base/config_node.h"
#include "sim/base/units.h"

namespace trn::sim {

/// Metadata of one field: description, range, optionality, allowed words.
struct FieldSpec {
  std::string doc;
  std::optional<double> min, max;
  bool min_exclusive = false;
  bool required = true;
  std::vector<std::string> choices;

  FieldSpec& gt(double x) {
    min = x;
    min_exclusive = true;
    return *this;
  }
  FieldSpec& ge(double x) {
    min = x;
    min_exclusive = false;
    return *this;
  }
  FieldSpec& le(double x) {
    max = x;
    return *this;
  }
  FieldSpec& optional() {
    required = false;
    return *this;
  }
  FieldSpec& one_of(std::vector<std::string> c) {
    choices = std::move(c);
    return *this;
  }
  std::string range_text() const;
};
inline FieldSpec F(std::string doc) {
  FieldSpec f;
  f.doc = std::move(doc);
  return f;
}

/// The word of an enum value (see enum_words above).
template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
const std::string& word_of(E e) {
  return enum_words(e)[static_cast<size_t>(e)];
}

/// The enum value whose word is `word` (see enum_words above); nullopt for any other text.
template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
std::optional<E> enum_of_word(const std::string& word) {
  const std::vector<std::string>& words = enum_words(E{});
  const auto it = std::find(words.begin(), words.end(), word);
  if (it == words.end()) return std::nullopt;
  return static_cast<E>(it - words.begin());
}

/// The closest candidate to `word` by edit distance, or "" when nothing is close.
std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates);

class ConfigReader {
 public:
  ConfigReader(const ConfigNode& node, std::string path);

  void field(const char* key, double& out, const FieldSpec& s);
  void field(const char* key, int64_t& out, const FieldSpec& s);
  void field(const char* key, int& out, const FieldSpec& s);
  void field(const char* key, bool& out, const FieldSpec& s);
  void field(const char* key, std::string& out, const FieldSpec& s);
  void field(const char* key, std::vector<int64_t>& out, const FieldSpec& s);
  void field(const char* key, std::vector<double>& out, const FieldSpec& s);
  void field(const char* key, std::vector<std::string>& out, const FieldSpec& s);
  template <Dim D>
  void field(const char* key, Quantity<D>& out, const FieldSpec& s) {
    if (const ConfigNode* n = get(key, s)) out.v = quantity(*n, key, D, s);
  }
  template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
  void field(const char* key, E& out, const FieldSpec& s) {
    const std::vector<std::string>& words = enum_words(out);
    FieldSpec w = s;
    w.choices = words;
    std::string text = words[static_cast<size_t>(out)];
    field(key, text, w);
    out = *enum_of_word<E>(text);
  }
  template <class S>
  void section(const char* key, S& out, const FieldSpec& s) {
    const ConfigNode* n = get(key, s);
    if (!n) return;
    if (!n->is_map()) fail(*n, key, "expected a map (" + s.doc + "), found " + n->kind_name());
    ConfigReader sub(*n, child_path(key));
    out.visit(sub);
    sub.finish();
  }
  template <class S>
  void list(const char* key, std::vector<S>& out, const FieldSpec& s) {
    const ConfigNode* n = get(key, s);
    if (!n) return;
    if (!n->is_list()) fail(*n, key, "expected a list (" + s.doc + "), found " + n->kind_name());
    out.clear();
    for (size_t i = 0; i < n->list.size(); ++i) {
      const ConfigNode& item = n->list[i];
      std::string p = child_path(key) + "[" + std::to_string(i) + "]";
      if (!item.is_map()) throw ConfigError(item.loc, p, "expected a map, found " + item.kind_name());
      S v{};
      ConfigReader sub(item, p);
      v.visit(sub);
      sub.finish();
      out.push_back(std::move(v));
    }
  }
  /// Rejects keys that no field asked for, naming the nearest valid key.
  void finish() const;
  const std::string& path() const { return path_; }
  const ConfigNode& node() const { return node_; }

 private:
  const ConfigNode* get(const char* key, const FieldSpec& s);
  std::string child_path(const char* key) const;
  [[noreturn]] void fail(const ConfigNode& n, const char* key, const std::string& msg) const;
  double number(const ConfigNode& n, const char* key, const FieldSpec& s) const;
  double quantity(const ConfigNode& n, const char* key, Dim d, const FieldSpec& s) const;
  void check_range(const ConfigNode& n, const char* key, double x, const FieldSpec& s, const std::string& shown) const;

  const ConfigNode& node_;
  std::string path_;
  std::vector<std::string> known_;
  std::vector<std::string> missing_;  // required keys not found: "key' (doc)"
};

/// Builds a ConfigNode from a visitable struct (the resolved configuration).
class ConfigWriter {
 public:
  ConfigNode node;
  ConfigWriter() { node.kind = ConfigNode::Kind::Map; }

  void field(const char* key, const double& v, const FieldSpec&);
  void field(const char* key, const int64_t& v, const FieldSpec&);
  void field(const char* key, const int& v, const FieldSpec&);
  void field(const char* key, const bool& v, const FieldSpec&);
  void field(const char* key, const std::string& v, const FieldSpec&);
  void field(const char* key, const std::vector<int64_t>& v, const FieldSpec&);
  void field(const char* key, const std::vector<double>& v, const FieldSpec&);
  void field(const char* key, const std::vector<std::string>& v, const FieldSpec&);
  template <Dim D>
  void field(const char* key, const Quantity<D>& q, const FieldSpec&) {
    put(key, scalar(format_quantity_exact(q.v, D), true));
  }
  template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
  void field(const char* key, const E& v, const FieldSpec& s) {
    field(key, word_of(v), s);
  }
  template <class S>
  void section(const char* key, const S& s, const FieldSpec&) {
    ConfigWriter sub;
    const_cast<S&>(s).visit(sub);
    put(key, std::move(sub.node));
  }
  template <class S>
  void list(const char* key, const std::vector<S>& v, const FieldSpec&) {
    ConfigNode l;
    l.kind = ConfigNode::Kind::List;
    for (const auto& item : v) {
      ConfigWriter sub;
      const_cast<S&>(item).visit(sub);
      l.list.push_back(std::move(sub.node));
    }
    put(key, std::move(l));
  }

 private:
  static ConfigNode scalar(const std::string& text, bool quoted);
  void put(const char* key, ConfigNode n);
};

/// Lists fields (dotted key, kind, range, description) for the generated reference.
class FieldLister {
 public:
  struct Row {
    std::string key, type, range, doc;
  };
  std::vector<Row> rows;
  std::string prefix;

  template <class T>
  void field(const char* key, T& v, const FieldSpec& s) {
    if constexpr (std::is_enum<T>::value) {
      FieldSpec w = s;
      w.choices = enum_words(v);
      rows.push_back(Row{prefix + key, "string", w.range_text(), s.doc});
    } else {
      rows.push_back(Row{prefix + key, type_name(static_cast<T*>(nullptr)), s.range_text(), s.doc});
    }
  }
  template <class S>
  void section(const char* key, S& s, const FieldSpec&) {
    FieldLister sub;
    sub.prefix = prefix + key + ".";
    s.visit(sub);
    rows.insert(rows.end(), sub.rows.begin(), sub.rows.end());
  }
  template <class S>
  void list(const char* key, std::vector<S>&, const FieldSpec&) {
    FieldLister sub;
    sub.prefix = prefix + key + "[].";
    S tmp{};
    tmp.visit(sub);
    rows.insert(rows.end(), sub.rows.begin(), sub.rows.end());
  }

 private:
  static std::string type_name(double*) { return "number"; }
  static std::string type_name(int64_t*) { return "integer"; }
  static std::string type_name(int*) { return "integer"; }
  static std::string type_name(bool*) { return "boolean"; }
  static std::string type_name(std::string*) { return "string"; }
  static std::string type_name(std::vector<int64_t>*) { return "list of integers"; }
  static std::string type_name(std::vector<double>*) { return "list of numbers"; }
  static std::string type_name(std::vector<std::string>*) { return "list of strings"; }
  template <Dim D>
  static std::string type_name(Quantity<D>*) {
    return dim_expectation(D);
  }
};

/// Reads a whole document into `out` (strict), with `root_path` as key prefix ("" for top).
template <class S>
void read_config(const ConfigNode& node, S& out, const std::string& root_path = "") {
  if (!node.is_map()) throw ConfigError(node.loc, root_path, "expected a map, found " + node.kind_name());
  ConfigReader r(node, root_path);
  out.visit(r);
  r.finish();
}

template <class S>
ConfigNode write_config(const S& s) {
  ConfigWriter w;
  const_cast<S&>(s).visit(w);
  return w.node;
}

}  // namespace trn::sim
