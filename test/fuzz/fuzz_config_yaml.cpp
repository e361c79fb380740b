// libFuzzer target: bytes -> the YAML configuration loader (syntax, include:, overrides:,
// "#set" lines as --set) and the strict typed readers of chip, system and model files,
// including their cross-field checks. Accepted inputs must survive the resolved-dump round
// trip. Seeds: hw/configs/**, workloads/models, workloads/calibration (see run_fuzzers.sh).
#include <cstddef>
#include <cstdint>
#include <string>

#include "models/spec/system_spec.h"
#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "test/fuzz/fuzz_common.h"
#include "workloads/model/model_spec.h"

using namespace trn;

namespace {

// The input lives at configs/chips/input.yaml beside a copy of the shipped calibration, so
// the chip seeds' "include: ../calibration/collectives.yaml" resolves as in the tree.
const std::string& input_path() {
  static const std::string path = [] {
    std::error_code ec;
    fuzz::fs::path dir = fuzz::fs::path(fuzz::scratch_dir()) / "configs" / "calibration";
    fuzz::fs::create_directories(dir);
    fuzz::fs::copy_file(sim::data_root() + "/hw/configs/calibration/collectives.yaml", dir / "collectives.yaml",
                        fuzz::fs::copy_options::overwrite_existing, ec);
    return (fuzz::fs::path(fuzz::scratch_dir()) / "configs" / "chips" / "input.yaml").string();
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string& path = input_path();
  fuzz::write_scratch("configs/chips/input.yaml", text);
  const std::vector<std::string> sets = fuzz::set_lines(text);

  // The generic loader: includes, overrides, --set, and the YAML writer on whatever it accepts.
  fuzz::expect_config_errors([&] {
    sim::ConfigNode root = sim::load_config_file(path);
    std::vector<sim::SetAssignment> as;
    for (size_t i = 0; i < sets.size(); ++i) as.push_back(sim::parse_set(sets[i], static_cast<int>(i + 1)));
    sim::apply_sets(root, as);
    sim::ConfigNode again = sim::parse_yaml_text(sim::to_yaml(root), "dump");
    (void)again;
  });

  models::ChipSpec chip;
  if (fuzz::expect_config_errors([&] { chip = models::load_chip(path, sets); }))
    fuzz::check_roundtrip(
        "configs/chips/resolved.yaml", models::resolved_yaml(chip, ""),
        [](const std::string& p) { return models::load_chip(p, {}); },
        [](const models::ChipSpec& c) { return models::resolved_yaml(c, ""); });

  models::SystemSpec system;
  if (fuzz::expect_config_errors([&] { system = models::load_system(path, sets); }))
    fuzz::check_roundtrip(
        "configs/systems/resolved.yaml", models::resolved_yaml(system, ""),
        [](const std::string& p) { return models::load_system(p, {}); },
        [](const models::SystemSpec& s) { return models::resolved_yaml(s, ""); });

  workloads::ModelSpec model;
  if (fuzz::expect_config_errors([&] { model = workloads::load_model(path, sets); }))
    fuzz::check_roundtrip(
        "configs/models/resolved.yaml", workloads::resolved_yaml(model, ""),
        [](const std::string& p) { return workloads::load_model(p, {}); },
        [](const workloads::ModelSpec& m) { return workloads::resolved_yaml(m, ""); });
  return 0;
}
