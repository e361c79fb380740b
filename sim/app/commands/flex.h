// `trnsim flexattention`: the reconstructed Trainium3 FlexAttention suite (96 cases) against
// a compile budget, and what a faster compiler or a longer budget would change. Options in,
// run_flex, result out; separate writers.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "workloads/compile/flex_suite.h"

namespace trn::app {

struct FlexOptions {
  std::string budget = "600s";  // compile budget per test, a time with unit
  double speedup = 1.0;         // compiler speed-up factor
};

/// One run of the suite: as given, with a faster compiler, or with a longer budget.
struct FlexScenario {
  std::string label;
  double budget_s = 0, speedup = 1;
  std::vector<workloads::FlexResult> cases;
};

struct FlexSuiteResult {
  std::vector<FlexScenario> scenarios;  // "as given" first
  std::string inputs_hash;              // of the budget, speed-up and compile parameters (documents.h)
};

/// Throws ConfigError for a bad --budget or --speedup.
FlexSuiteResult run_flex(const FlexOptions& o);
void write_flex_text(const FlexSuiteResult& r, FILE* out);
/// The --json document (docs/schema/flexattention.schema.json).
nlohmann::ordered_json flex_json(const FlexSuiteResult& r);

}  // namespace trn::app
