// Bad input found by the fuzz targets and the bad-input catalogue (docs/robustness.md), pinned
// at the unit level: one-line errors, non-regular files, quantity and count limits, JSON
// number overflow, and resolved dumps of strings YAML would otherwise read differently.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

#include "sim/base/config_loader.h"
#include "test/unit/test_util.h"
#include "sim/base/config_reader.h"
#include "workloads/model/hf_import.h"

using namespace trn;
using sim::ConfigError;
namespace fs = std::filesystem;

namespace {

using trn::test::error_of;

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("trnsim_robustness_" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

struct Sized {
  sim::Bytes size{0};
  int count = 0;
  std::string name;
  template <class V>
  void visit(V& v) {
    v.field("size", size, sim::F("a size").ge(0));
    v.field("count", count, sim::F("a count").ge(0));
    v.field("name", name, sim::F("a name"));
  }
};

}  // namespace

TEST_CASE("errors quoting multi-line or binary values stay on one line", "[robustness]") {
  std::string e = error_of([] {
    Sized s;
    sim::read_config(sim::parse_yaml_text("size: \"1 GiB\"\ncount: |\n  1\n  2\nname: x\n", "f.yaml"), s);
  });
  CHECK_THAT(e, Catch::StartsWith("f.yaml:2:8: count: expected a number"));
  CHECK(e.find('\n') == std::string::npos);
  CHECK_THAT(e, Catch::Contains("1\\n2"));
  CHECK(sim::one_line(std::string("a\tb\x01") + "c") == "a\\tb\\x01c");
}

TEST_CASE("a device or FIFO is not read as a configuration file", "[robustness]") {
  CHECK_THAT(error_of([] { sim::load_config_file("/dev/zero"); }),
             Catch::Contains("'/dev/zero' is not a regular file, expected a YAML file"));
  Scratch t;
  std::string p = t.write("inc.yaml", "include: /dev/zero\n");
  CHECK_THAT(error_of([&] { sim::load_config_file(p); }),
             Catch::Contains("inc.yaml:1:10: include: '/dev/zero' is not a regular file"));
  CHECK_THAT(error_of([] { workloads::import_hf_config("/dev/null"); }), Catch::Contains("is not a regular file"));
}

TEST_CASE("quantities and counts beyond any real system are rejected", "[robustness]") {
  auto read = [](const std::string& text) {
    Sized s;
    sim::read_config(sim::parse_yaml_text(text, "f.yaml"), s);
    return s;
  };
  CHECK(read("size: \"1024 PiB\"\ncount: 1\nname: x\n").size.v == 1152921504606846976.0);
  CHECK_THAT(error_of([&] { read("size: \"1e30 GiB\"\ncount: 1\nname: x\n"); }),
             Catch::Contains("f.yaml:1:7: size: value '1e30 GiB' is too large: expected at most 1024 PiB"));
  CHECK_THAT(error_of([&] { read("size: \"1 GiB\"\ncount: 1e12\nname: x\n"); }),
             Catch::Contains("f.yaml:2:8: count: value 1e12 is out of range: expected -2147483648 to 2147483647"));
  CHECK_THAT(error_of([&] { read("size: \"1 GiB\"\ncount: 1e300\nname: x\n"); }),
             Catch::Contains("count: value 1e300 is out of range"));
}

TEST_CASE("strings YAML reads as null or control characters survive the resolved dump", "[robustness]") {
  const std::vector<std::string> names = {"~", "null", "Null", "NULL", "a\\b", "tab\there", "bell\x07", "x: y"};
  for (const std::string& name : names) {
    Sized s;
    s.name = name;
    s.size = sim::Bytes(1);
    Sized back;
    sim::read_config(sim::parse_yaml_text(sim::to_yaml(sim::write_config(s)), "dump"), back);
    CHECK(back.name == name);
  }
}

TEST_CASE("a JSON number that overflows a double is a located ConfigError", "[robustness][hf]") {
  Scratch t;
  std::string p = t.write("m/config.json", "{\"architectures\": [\"LlamaForCausalLM\"],\n \"hidden_size\": 1e400}\n");
  CHECK_THAT(error_of([&] { workloads::import_hf_config(p); }),
             Catch::Contains("config.json:2:17: invalid JSON: number overflow parsing '1e400'"));
}
