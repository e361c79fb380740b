// Schema versions and the stamp of every JSON document (documents.h).
#include "sim/app/commands/documents.h"

#include <cmath>

#include "sim/base/provenance.h"

namespace trn::app {

int schema_version(Document d) {
  switch (d) {
    case Document::Run: return 1;
    case Document::Startup: return 1;
    case Document::BenchCollective: return 1;
    case Document::BenchMatmul: return 1;
    case Document::BenchHbm: return 1;
    case Document::SweepRow: return 1;
    case Document::Flex: return 1;
    case Document::Plan: return 1;
    case Document::RunTrace: return 1;
    case Document::InferenceCompile: return 1;
  }
  return 0;
}

std::string inputs_hash(const std::string& inputs) { return sim::fnv1a64_hex(inputs); }

int64_t json_count(double x) { return static_cast<int64_t>(std::llround(x)); }

nlohmann::ordered_json stamped(Document d, const std::string& hash, const nlohmann::ordered_json& body) {
  nlohmann::ordered_json js;
  js["schema_version"] = schema_version(d);
  js["trnsim_version"] = sim::trnsim_version();
  js["inputs_hash"] = hash;
  for (const auto& [k, v] : body.items()) js[k] = v;
  return js;
}

}  // namespace trn::app
