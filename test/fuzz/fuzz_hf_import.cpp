// libFuzzer target: bytes -> the Hugging Face config.json importer (JSON syntax, supported
// architectures, required keys, types and ranges located at their keys) and the model
// loader around it (load_model: strict read and cross-field checks of the imported spec).
// Accepted configs must survive the resolved-dump round trip. Seeds: test/data/hf.
#include <cstddef>
#include <cstdint>
#include <string>

#include "test/fuzz/fuzz_common.h"
#include "workloads/model/hf_import.h"

using namespace trn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string path = fuzz::write_scratch("hf/Model-X/config.json", text);
  workloads::ModelSpec m;
  if (fuzz::expect_config_errors([&] { m = workloads::load_model(path, {}); }))
    fuzz::check_roundtrip(
        "hf/resolved.yaml", workloads::resolved_yaml(m, ""),
        [](const std::string& p) { return workloads::load_model(p, {}); },
        [](const workloads::ModelSpec& r) { return workloads::resolved_yaml(r, ""); });
  return 0;
}
