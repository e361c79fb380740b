// Where an output comes from: the trnsim build that wrote it and a hash of the inputs it was
// computed from. Every JSON document trnsim writes carries both (sim/app/commands/documents.h).
#pragma once

#include <string>

namespace trn::sim {

/// The build's version: `git describe --always --dirty` of the source checkout at build time
/// (e.g. "d6cd2d5" or "d6cd2d5-dirty"), or the project version (e.g. "0.1.0") when built from
/// a tree that is not a git checkout (cmake/trnsim_version.cmake).
const std::string& trnsim_version();

/// FNV-1a 64 of `text` as 16 lowercase hex digits: deterministic, the same on every machine.
std::string fnv1a64_hex(const std::string& text);

}  // namespace trn::sim
