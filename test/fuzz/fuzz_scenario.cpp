// libFuzzer target: bytes -> the scenario loader, the whole resolve path: the runtime
// calibration merged underneath, system and model references (names, paths, inline
// documents), "#set" lines as --set, the strict read and every layout check. Accepted
// scenarios must survive the resolved-dump round trip. Seeds: workloads/scenarios.
#include <cstddef>
#include <cstdint>
#include <string>

#include "test/fuzz/fuzz_common.h"
#include "workloads/scenario/scenario_spec.h"

using namespace trn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string path = fuzz::write_scratch("scenarios/input.yaml", text);
  const std::vector<std::string> sets = fuzz::set_lines(text);
  workloads::ScenarioSpec s;
  if (fuzz::expect_config_errors([&] { s = workloads::load_scenario(path, sets); }))
    fuzz::check_roundtrip(
        "scenarios/resolved.yaml", workloads::resolved_yaml(s, ""),
        [](const std::string& p) { return workloads::load_scenario(p, {}); },
        [](const workloads::ScenarioSpec& r) { return workloads::resolved_yaml(r, ""); });
  return 0;
}
