// Strict configuration loading: includes, overrides, --set, and error messages that name
// file:line:col, the dotted key path, what was expected and the nearest valid key.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>

#include <unistd.h>

#include "sim/base/config_loader.h"
#include "test/unit/test_util.h"
#include "sim/base/config_reader.h"

using namespace trn::sim;
namespace fs = std::filesystem;

namespace {

struct Inner {
  Bandwidth bandwidth{0};
  int count = 1;
  template <class V>
  void visit(V& v) {
    v.field("bandwidth", bandwidth, F("link bandwidth").gt(0));
    v.field("count", count, F("links").ge(1).le(64));
  }
};

struct Outer {
  std::string name;
  Inner link;
  bool fast = false;
  Time latency{0};
  template <class V>
  void visit(V& v) {
    v.field("name", name, F("name"));
    v.section("link", link, F("link"));
    v.field("fast", fast, F("fast mode").optional());
    v.field("latency", latency, F("latency").ge(0));
  }
};

struct TempDir {
  fs::path dir;
  TempDir() {
    dir = fs::temp_directory_path() / ("trnsim_cfg_" + std::to_string(::getpid()) + "_" + std::to_string(rand()));
    fs::create_directories(dir);
  }
  ~TempDir() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

using trn::test::error_of;

const char* kGood =
    "name: x\n"
    "link:\n"
    "  bandwidth: \"256 GB/s\"\n"
    "  count: 4\n"
    "latency: 1.5 us\n";

}  // namespace

TEST_CASE("a good file loads into typed fields", "[config]") {
  TempDir t;
  Outer o;
  read_config(load_config_file(t.write("a.yaml", kGood)), o);
  CHECK(o.name == "x");
  CHECK(o.link.bandwidth.v == Approx(256e9));
  CHECK(o.link.count == 4);
  CHECK(o.latency.v == Approx(1.5e-6));
  CHECK_FALSE(o.fast);
}

TEST_CASE("include, dotted overrides and --set apply in order", "[config]") {
  TempDir t;
  t.write("base.yaml", kGood);
  std::string top = t.write("top.yaml",
                            "include: base.yaml\n"
                            "name: y\n"
                            "overrides:\n"
                            "  link.count: 8\n");
  ConfigNode n = load_config_file(top);
  apply_sets(n, {parse_set("link.bandwidth=512 GB/s", 1)});
  Outer o;
  read_config(n, o);
  CHECK(o.name == "y");
  CHECK(o.link.count == 8);
  CHECK(o.link.bandwidth.v == Approx(512e9));
}

TEST_CASE("errors name file:line:col, key path and expectation", "[config]") {
  TempDir t;
  SECTION("unknown key suggests the nearest") {
    std::string p = t.write("b.yaml", "name: x\nlink:\n  bandwith: \"1 GB/s\"\n  count: 1\nlatency: 1 us\n");
    std::string e = error_of([&] {
      Outer o;
      read_config(load_config_file(p), o);
    });
    CHECK(e.find("b.yaml:3:3") != std::string::npos);
    CHECK(e.find("link.bandwith") != std::string::npos);
    CHECK(e.find("did you mean 'bandwidth'") != std::string::npos);
  }
  SECTION("unitless bandwidth") {
    std::string p = t.write("c.yaml", "name: x\nlink:\n  bandwidth: 2.9\n  count: 1\nlatency: 1 us\n");
    std::string e = error_of([&] {
      Outer o;
      read_config(load_config_file(p), o);
    });
    CHECK(e.find("c.yaml:3:14") != std::string::npos);
    CHECK(e.find("link.bandwidth") != std::string::npos);
    CHECK(e.find("no unit") != std::string::npos);
  }
  SECTION("out of range") {
    std::string p = t.write("d.yaml", "name: x\nlink:\n  bandwidth: 0 GB/s\n  count: 1\nlatency: 1 us\n");
    std::string e = error_of([&] {
      Outer o;
      read_config(load_config_file(p), o);
    });
    CHECK(e.find("out of range") != std::string::npos);
    CHECK(e.find("> 0") != std::string::npos);
  }
  SECTION("negative count and non-integer count") {
    std::string p = t.write("e.yaml", "name: x\nlink:\n  bandwidth: 1 GB/s\n  count: -1\nlatency: 1 us\n");
    CHECK(error_of([&] {
            Outer o;
            read_config(load_config_file(p), o);
          }).find("link.count") != std::string::npos);
    p = t.write("e2.yaml", "name: x\nlink:\n  bandwidth: 1 GB/s\n  count: 1.5\nlatency: 1 us\n");
    CHECK(error_of([&] {
            Outer o;
            read_config(load_config_file(p), o);
          }).find("whole number") != std::string::npos);
  }
  SECTION("missing key") {
    std::string p = t.write("f.yaml", "name: x\nlink:\n  count: 1\nlatency: 1 us\n");
    std::string e = error_of([&] {
      Outer o;
      read_config(load_config_file(p), o);
    });
    CHECK(e.find("f.yaml:3:3") != std::string::npos);
    CHECK(e.find("missing key 'bandwidth'") != std::string::npos);
  }
  SECTION("wrong type") {
    std::string p = t.write("g.yaml", "name: x\nlink: 5\nlatency: 1 us\n");
    CHECK(error_of([&] {
            Outer o;
            read_config(load_config_file(p), o);
          }).find("expected a map") != std::string::npos);
    p = t.write("g2.yaml", std::string(kGood) + "fast: \"yes\"\n");
    CHECK(error_of([&] {
            Outer o;
            read_config(load_config_file(p), o);
          }).find("true or false") != std::string::npos);
  }
  SECTION("YAML syntax error") {
    std::string p = t.write("h.yaml", "name: x\nlink: [1, 2\n");
    std::string e = error_of([&] { load_config_file(p); });
    CHECK(e.find("h.yaml:") != std::string::npos);
    CHECK(e.find("YAML syntax error") != std::string::npos);
  }
  SECTION("missing include, include cycle, directory") {
    std::string p = t.write("i.yaml", "include: nope.yaml\nname: x\n");
    std::string e = error_of([&] { load_config_file(p); });
    CHECK(e.find("i.yaml:1:10") != std::string::npos);
    CHECK(e.find("does not exist") != std::string::npos);
    t.write("j.yaml", "include: k.yaml\n");
    std::string k = t.write("k.yaml", "include: j.yaml\n");
    CHECK(error_of([&] { load_config_file(k); }).find("include cycle") != std::string::npos);
    CHECK(error_of([&] { load_config_file(t.dir.string()); }).find("is a directory") != std::string::npos);
  }
  SECTION("--set without '='") {
    CHECK(error_of([&] { parse_set("link.count", 1); }).find("expected key=value") != std::string::npos);
  }
  SECTION("duplicate key") {
    std::string p = t.write("l.yaml", "name: x\nname: y\n");
    CHECK(error_of([&] { load_config_file(p); }).find("duplicate key") != std::string::npos);
  }
}

TEST_CASE("the writer dumps what the reader reads, bit for bit", "[config]") {
  TempDir t;
  Outer o;
  read_config(load_config_file(t.write("a.yaml", kGood)), o);
  o.link.bandwidth = Bandwidth(123456789.123);
  o.latency = Time(1.0 / 3.0);
  std::string text = to_yaml(write_config(o));
  Outer back;
  read_config(parse_yaml_text(text, "dump"), back);
  CHECK(back.link.bandwidth.v == o.link.bandwidth.v);
  CHECK(back.latency.v == o.latency.v);
  CHECK(to_yaml(write_config(back)) == text);
}

TEST_CASE("nearest_word finds close misspellings only", "[config]") {
  CHECK(nearest_word("bandwith", {"bandwidth", "count"}) == "bandwidth");
  CHECK(nearest_word("zzzzzz", {"bandwidth", "count"}).empty());
}
