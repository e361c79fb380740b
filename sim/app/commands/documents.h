// The JSON documents trnsim writes and their stamp. Every document starts with
//   "schema_version": the version of its kind's schema (docs/schema/KIND.schema.json),
//   "trnsim_version": the build that wrote it (sim/base/provenance.h),
//   "inputs_hash":    FNV-1a 64 of the fully resolved inputs the command used (the resolved
//                     configuration and the options that change the figures), so that identical
//                     inputs give identical hashes.
// The schema versions are defined here and nowhere else: bump one when a field of that kind is
// removed, renamed or changes meaning (adding a field needs no bump), and update its schema file.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace trn::app {

enum class Document {
  Run,
  Startup,
  BenchCollective,
  BenchMatmul,
  BenchHbm,
  SweepRow,
  Flex,
  Plan,
  RunTrace,
  InferenceCompile
};

/// The schema version of a document kind (1 for every kind so far): docs/schema/run.schema.json,
/// startup, bench-collective, bench-matmul, bench-hbm, sweep-row, flexattention, run-trace and
/// inference-compile.schema.json
/// state the same number as their schema_version's const (the plan has no schema file yet).
int schema_version(Document d);

/// A count or a size in bytes as a JSON integer (documents write parameters, tokens, steps, bytes
/// and cycles as integers; a per-rank share of bytes, an average over shards, is rounded to the
/// nearest byte). FLOP counts stay numbers: they can exceed 64-bit integers.
int64_t json_count(double x);

/// The hash of the resolved inputs text, as "inputs_hash" carries it (16 hex digits).
std::string inputs_hash(const std::string& inputs);

/// `body` (an object) with the stamp in front: schema_version, trnsim_version, then
/// inputs_hash (`hash`, as from inputs_hash()).
nlohmann::ordered_json stamped(Document d, const std::string& hash, const nlohmann::ordered_json& body);

}  // namespace trn::app
