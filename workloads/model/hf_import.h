// Imports a Hugging Face `config.json` into a ModelSpec, so any published checkpoint of a
// supported family can be simulated without writing a zoo file. Reads only the keys that
// shape the computation (sizes, heads, experts, windows, biases) and ignores the rest
// (rope_theta, torch_dtype, token ids, ...). nlohmann::json stays inside the .cpp.
#pragma once

#include <string>
#include <vector>

#include "workloads/model/model_spec.h"

namespace trn::workloads {

/// Prefix of ModelSpec::source for an imported config ("Hugging Face config <path>").
inline constexpr const char* kImportedSource = "Hugging Face config ";

/// `architectures[0]` values the importer understands, in the order error messages list them.
const std::vector<std::string>& supported_hf_architectures();

/// Reads `path` (a config.json) and returns the validated spec. name is the parent
/// directory's name for a file called config.json (".../Qwen3-32B/config.json" ->
/// "Qwen3-32B"), else "hf:" + the file name; source names the file.
/// Throws sim::ConfigError naming the file (and line:col where known) for a missing or
/// invalid JSON file, an unsupported architecture (listing the supported ones), a missing
/// required key (named) or a value of the wrong type or out of range.
ModelSpec import_hf_config(const std::string& path);

}  // namespace trn::workloads
